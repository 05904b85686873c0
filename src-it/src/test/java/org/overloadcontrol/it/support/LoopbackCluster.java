package org.overloadcontrol.it.support;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code cluster.*} settings of nodes that form one cluster on 127.0.0.1: each node's
 * embedded member on a port the operating system picked, TCP/IP join through the full member
 * list, a cluster name no other test's nodes share (README, "Running several nodes").
 */
public final class LoopbackCluster {

  private final String name;
  private final int[] ports;
  private final String members;

  private LoopbackCluster(String name, int[] ports) {
    this.name = name;
    this.ports = ports.clone();
    StringBuilder m = new StringBuilder();
    for (int p : ports) {
      m.append(m.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
    }
    this.members = m.toString();
  }

  /** A cluster of {@code nodes} members, named after {@code prefix} and its first port. */
  public static LoopbackCluster of(String prefix, int nodes) throws IOException {
    int[] ports = FreePorts.loopback(nodes);
    return new LoopbackCluster(prefix + "-" + ports[0], ports);
  }

  /** Node {@code node}'s {@code cluster.*} settings, as filter init-params. */
  public Map<String, String> settings(int node) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("cluster.enabled", "true");
    s.put("cluster.name", name);
    s.put("cluster.members", members);
    s.put("cluster.address", "127.0.0.1");
    s.put("cluster.port", Integer.toString(ports[node]));
    return s;
  }
}
