package org.overloadcontrol.internal.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.cluster.TokenClaim;

/**
 * A cluster in one process for fake-clock tests: the reports and used tokens in shared maps,
 * one {@link ClusterCoordinator} per node. A node can be cut off (it keeps its old view, its
 * claims go unanswered and the others stop hearing from it), or the cluster split in two sides
 * that each go on without the other.
 */
public final class InMemoryCluster {

  /** The reports each side of a split holds, by side; one side while the cluster is whole. */
  private final Map<Integer, Map<String, NodeReport>> sides = new ConcurrentHashMap<>();

  private final Map<String, Integer> sideOf = new ConcurrentHashMap<>();
  private final Map<String, Long> usedUntilSecond = new ConcurrentHashMap<>();
  private final Set<String> cutOff = ConcurrentHashMap.newKeySet();
  private volatile boolean claimsUnanswered;
  private volatile boolean claimsLate;
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

  /**
   * Whether every token claim goes unanswered (a slow cluster: the reports still flow, the
   * claims time out).
   */
  public void claimsUnanswered(boolean unanswered) {
    claimsUnanswered = unanswered;
  }

  /**
   * Whether every token claim is answered late (a slow cluster whose claims land after the
   * caller's bound): the caller hears {@link TokenClaim#UNKNOWN}, yet a first claim marks the
   * token used, and the mark stays unless the claim asked for it to be taken back.
   */
  public void claimsLate(boolean late) {
    claimsLate = late;
  }

  /**
   * Splits the cluster: {@code ids} form side 1, the rest stay on side 0. Each side keeps the
   * reports it had of the other side's nodes (stale from now on) until it {@link #forget}s them.
   */
  public void split(Set<String> ids) {
    sides.put(1, new ConcurrentHashMap<>(reports(0)));
    for (String id : ids) {
      sideOf.put(id, 1);
    }
  }

  /** Side {@code side} drops {@code id}'s report, as a coordinator does after forgetAfter. */
  public void forget(int side, String id) {
    reports(side).remove(id);
  }

  private Map<String, NodeReport> reports(int side) {
    return sides.computeIfAbsent(side, s -> new ConcurrentHashMap<>());
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
      reports(sideOf.getOrDefault(id, 0)).put(id, report);
      view = read();
    }

    /** The others' reports as they are now: the cluster's maps are read on the spot. */
    private ClusterView read() {
      List<NodeReport> others = new ArrayList<>();
      for (NodeReport r : reports(sideOf.getOrDefault(id, 0)).values()) {
        if (!r.node().equals(id)) {
          others.add(r);
        }
      }
      return new ClusterView(others, epochSecond.getAsLong());
    }

    @Override
    public ClusterView view() {
      if (!cutOff.contains(id) && view != ClusterView.EMPTY) {
        view = read();
      }
      return view;
    }

    @Override
    public TokenClaim claim(String tokenKey, Duration keepFor, boolean keepIfLate) {
      if (cutOff.contains(id) || claimsUnanswered) {
        return TokenClaim.UNKNOWN;
      }
      long now = epochSecond.getAsLong();
      usedUntilSecond.values().removeIf(until -> until < now);
      Long before = usedUntilSecond.putIfAbsent(tokenKey, now + keepFor.toSeconds());
      if (claimsLate) {
        if (before == null && !keepIfLate) {
          usedUntilSecond.remove(tokenKey); // the late answer arrived: the mark is taken back
        }
        return TokenClaim.UNKNOWN;
      }
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
