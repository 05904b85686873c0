package org.overloadcontrol.internal.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Durations;
import org.overloadcontrol.internal.config.KeyTable;

/** Reads and validates the {@code cluster.} section into the published {@link ClusterSettings}. */
public final class ClusterSettingsReader {

  private static final KeyTable KEYS = ClusterKeyTable.TABLE;

  private ClusterSettingsReader() {}

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  /**
   * Parses and validates the section; the defaults are {@link ClusterSettings#OFF}'s.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key and value
   */
  public static ClusterSettings read(ConfigSection s) {
    ClusterSettings d = ClusterSettings.OFF;
    s.requireOnly(KEYS);
    boolean enabled = s.parse("enabled", ConfigSection::bool, d.enabled());
    String name = s.parse("name", ClusterSettingsReader::nonBlank, d.name());
    List<String> members = s.parse("members", ClusterSettingsReader::members, d.members());
    String address = s.parse("address", ClusterSettingsReader::nonBlank, d.address());
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
            d.port());
    boolean multicast = s.parse("multicast", ConfigSection::bool, d.multicast());
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
            d.callTimeout());
    Duration forgetAfter =
        s.parse(
            "forgetAfter",
            v -> between(v, Duration.ofSeconds(5), Duration.ofHours(1)),
            d.forgetAfter());
    String configFile = s.parse("configFile", ClusterSettingsReader::nonBlank, d.configFile());
    String keyStore = s.parse("tls.keyStore", ClusterSettingsReader::nonBlank, d.keyStore());
    String keyStorePassword = s.parse("tls.keyStorePassword", v -> v, d.keyStorePassword());
    String trustStore = s.parse("tls.trustStore", ClusterSettingsReader::nonBlank, d.trustStore());
    String trustStorePassword = s.parse("tls.trustStorePassword", v -> v, d.trustStorePassword());
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
