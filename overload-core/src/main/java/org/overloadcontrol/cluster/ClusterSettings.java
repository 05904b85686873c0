package org.overloadcontrol.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Durations;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The {@code cluster.} configuration, parsed and validated once; the keys of every coordinator
 * (README's "Running several nodes" lists them). In short:
 *
 * <pre>
 * cluster.enabled              false             switch
 * cluster.name                 overload-control  members with another name never join
 * cluster.members              -                 host[:port] of the members, comma-separated
 * cluster.address              -                 interface this member binds and announces
 * cluster.port                 5701              this member's port
 * cluster.multicast            false             find members by multicast instead
 * cluster.expectedNodes        members' count    nodes sharing the capacity before all are heard
 * cluster.callTimeout          50ms              longest a request waits on the cluster
 * cluster.forgetAfter          30s               a silent member's report is dropped after this
 * cluster.configFile           -                 the coordinator's own configuration file
 * cluster.tls.keyStore         -                 TLS between members (passed through)
 * cluster.tls.keyStorePassword -
 * cluster.tls.trustStore       -
 * cluster.tls.trustStorePassword -
 * </pre>
 */
public record ClusterSettings(
    boolean enabled,
    String name,
    List<String> members,
    String address,
    int port,
    boolean multicast,
    int expectedNodes,
    Duration callTimeout,
    Duration forgetAfter,
    String configFile,
    String keyStore,
    String keyStorePassword,
    String trustStore,
    String trustStorePassword) {

  /** The section with nothing configured: one node, no cluster. */
  public static final ClusterSettings OFF = from(ConfigSection.empty("cluster"));

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = ClusterKeyTable.TABLE;

  public ClusterSettings {
    members = List.copyOf(members);
  }

  /** Whether TLS between members is configured. */
  public boolean tls() {
    return keyStore != null || trustStore != null;
  }

  /**
   * Parses and validates the section.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key and value
   */
  public static ClusterSettings from(ConfigSection s) {
    s.requireOnly(KEYS);
    boolean enabled = s.parse("enabled", ConfigSection::bool, false);
    String name = s.parse("name", ClusterSettings::nonBlank, "overload-control");
    List<String> members = s.parse("members", ClusterSettings::members, List.of());
    String address = s.parse("address", ClusterSettings::nonBlank, null);
    int port =
        s.parse(
            "port",
            v -> {
              int p = ConfigSection.positiveInt(v);
              if (p > 65_535) {
                throw new IllegalArgumentException("must be a port from 1 to 65535");
              }
              return p;
            },
            5701);
    boolean multicast = s.parse("multicast", ConfigSection::bool, false);
    if (enabled && !multicast && members.isEmpty()) {
      throw s.conflict(
          "cluster.members is required when cluster.enabled is true and cluster.multicast is"
              + " false: list the members, e.g. 10.0.0.1:5701,10.0.0.2:5701",
          "members",
          "enabled");
    }
    int expected =
        s.parse("expectedNodes", ConfigSection::positiveInt, Math.max(1, members.size()));
    Duration callTimeout =
        s.parse(
            "callTimeout",
            v -> between(v, Duration.ofMillis(1), Duration.ofSeconds(10)),
            Duration.ofMillis(50));
    Duration forgetAfter =
        s.parse(
            "forgetAfter",
            v -> between(v, Duration.ofSeconds(5), Duration.ofHours(1)),
            Duration.ofSeconds(30));
    String configFile = s.parse("configFile", ClusterSettings::nonBlank, null);
    String keyStore = s.parse("tls.keyStore", ClusterSettings::nonBlank, null);
    String keyStorePassword = s.parse("tls.keyStorePassword", v -> v, null);
    String trustStore = s.parse("tls.trustStore", ClusterSettings::nonBlank, null);
    String trustStorePassword = s.parse("tls.trustStorePassword", v -> v, null);
    return new ClusterSettings(
        enabled,
        name,
        members,
        address,
        port,
        multicast,
        expected,
        callTimeout,
        forgetAfter,
        configFile,
        keyStore,
        keyStorePassword,
        trustStore,
        trustStorePassword);
  }

  private static List<String> members(String v) {
    List<String> list = new ArrayList<>();
    for (String m : v.split(",")) {
      String member = m.trim();
      if (member.isEmpty()) {
        continue;
      }
      if (!member.matches("[A-Za-z0-9.\\-\\[\\]:]+")) {
        throw new IllegalArgumentException("not a host[:port]: " + member);
      }
      list.add(member);
    }
    if (list.isEmpty()) {
      throw new IllegalArgumentException("must list at least one host[:port]");
    }
    return list;
  }

  private static Duration between(String v, Duration min, Duration max) {
    Duration d = Durations.parse(v);
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          "must be between " + min.toMillis() + "ms and " + max.toMillis() + "ms");
    }
    return d;
  }

  private static String nonBlank(String v) {
    if (v.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    return v;
  }
}
