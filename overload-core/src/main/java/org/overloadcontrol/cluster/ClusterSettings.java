package org.overloadcontrol.cluster;

import java.time.Duration;
import java.util.List;

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
  public static final ClusterSettings OFF =
      new ClusterSettings(
          false,
          "overload-control",
          List.of(),
          null,
          5701,
          false,
          1,
          Duration.ofMillis(50),
          Duration.ofSeconds(30),
          null,
          null,
          null,
          null,
          null);

  public ClusterSettings {
    members = List.copyOf(members);
  }

  /** Whether TLS between members is configured. */
  public boolean tls() {
    return keyStore != null || trustStore != null;
  }
}
