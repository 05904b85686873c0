package org.overloadcontrol.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A cluster in one process for fake-clock tests: the reports and used tokens in shared maps,
 * one {@link ClusterCoordinator} per node. A node can be cut off (as in a network split: it
 * keeps its old view, its claims go unanswered and the others stop hearing from it).
 */
public final class InMemoryCluster {

  private final Map<String, NodeReport> reports = new ConcurrentHashMap<>();
  private final Map<String, Long> usedUntilSecond = new ConcurrentHashMap<>();
  private final Set<String> cutOff = ConcurrentHashMap.newKeySet();
  private final LongSupplier epochSecond;
  private final int expectedNodes;

  /** @param epochSecond the current Unix second (the tests' fake clock) */
  public InMemoryCluster(LongSupplier epochSecond, int expectedNodes) {
    this.epochSecond = epochSecond;
    this.expectedNodes = expectedNodes;
  }

  /** The coordinator of node {@code id}. */
  public ClusterCoordinator node(String id) {
    return new Node(id);
  }

  /** Cuts {@code id} off from the others until {@link #reconnect}. */
  public void cutOff(String id) {
    cutOff.add(id);
  }

  public void reconnect(String id) {
    cutOff.remove(id);
  }

  private final class Node implements ClusterCoordinator {
    private final String id;
    private volatile ClusterView view = ClusterView.EMPTY;

    Node(String id) {
      this.id = id;
    }

    @Override
    public String node() {
      return id;
    }

    @Override
    public void publish(NodeReport report) {
      if (cutOff.contains(id)) {
        return;
      }
      reports.put(id, report);
      List<NodeReport> others = new ArrayList<>();
      for (NodeReport r : reports.values()) {
        if (!r.node().equals(id)) {
          others.add(r);
        }
      }
      view = new ClusterView(others, epochSecond.getAsLong());
    }

    @Override
    public ClusterView view() {
      return view;
    }

    @Override
    public TokenClaim claim(String tokenKey, Duration keepFor) {
      if (cutOff.contains(id)) {
        return TokenClaim.UNKNOWN;
      }
      long now = epochSecond.getAsLong();
      usedUntilSecond.values().removeIf(until -> until < now);
      Long before = usedUntilSecond.putIfAbsent(tokenKey, now + keepFor.toSeconds());
      return before == null ? TokenClaim.FIRST : TokenClaim.REPLAYED;
    }

    @Override
    public int expectedNodes() {
      return expectedNodes;
    }

    @Override
    public void close() {
      // The last report (marked leaving) stays: the node's promises outlive it.
    }
  }
}
