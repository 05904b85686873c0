package org.overloadcontrol.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica's share of the cluster's capacity, WebQ's equation 1 (Suresh et al., §III-B):
 * {@code S_i = L_i / Σ_j L_j × C}, never below a reserve that lets an idle replica ramp up, and
 * the rule for a cluster that is not whole.
 *
 * <p>The cluster is whole when this node's view is fresh (read within {@code staleSeconds}),
 * every member in it reported within {@code staleSeconds}, and the node has once heard from
 * {@code expectedNodes} members (itself included; until then the others may simply not have
 * reported yet). Then the share follows the load.
 * When it is not (a member stopped answering, the network split, this node lost the cluster),
 * the node keeps the fraction it last had in a whole cluster, and before it ever saw one it
 * takes {@code 1 / expectedNodes}: each node falls back to its own share, never to the whole
 * capacity, so the sides of a split together still promise about C. A node that has just
 * started (or restarted under a new id) takes that 1/n only while it has heard nobody; from its
 * first view on it takes no more than the parts the others report leave, until the cluster is
 * whole with it. A member that crashed and has not been forgotten yet ({@code
 * cluster.forgetAfter}) still counts with the part it last held: that is the bound on how long a
 * restarted node can be held below its share. A member that leaves
 * cleanly says so in its last report, and the others share all of C at once. A silent one whose
 * report the coordinator drops ({@code cluster.forgetAfter}) keeps the part it last reported,
 * and the cluster is whole again without it: the survivors share the rest.
 *
 * <p>The reports of the nodes arrive a quarter of a second apart, so right after a second ends
 * the nodes compute their parts from different seconds; were each to take its new part at once,
 * a node whose part rose and one whose part has not yet fallen would together promise more than
 * C (2 C when a crowd moves from one node to the other). Every node therefore reports the
 * part it holds, and takes no more than the others leave: a part falls at once and rises at the
 * next exchange after the others have reported theirs fallen.
 *
 * <p>C is the configured cluster capacity, or with an estimated capacity the sum of the
 * members' own estimates (each node's estimator measures its own server; while one of them is
 * still training its estimate is +∞, and so is C: nobody waits until all have estimated).
 */
public final class CapacityShare {

  /** The reserve of an idle replica, as a fraction of an equal share. */
  static final double RESERVE = 0.1;

  private final int staleSeconds;
  private final int expectedNodes;
  private double lastWholeFraction = Double.NaN; // guarded by this
  private boolean assembled; // guarded by this: expectedNodes members were once heard
  private boolean heard; // guarded by this: a report of another member was once in the view
  private double lastFraction; // guarded by this

  /** Members gone without a leaving report, and the part each last reported: kept for them. */
  private final Map<String, Double> lost = new HashMap<>(); // guarded by this

  private Map<String, Double> lastMembers = Map.of(); // guarded by this

  public CapacityShare(int staleSeconds, int expectedNodes) {
    if (staleSeconds < 1 || expectedNodes < 1) {
      throw new IllegalArgumentException("staleSeconds and expectedNodes must be >= 1");
    }
    this.staleSeconds = staleSeconds;
    this.expectedNodes = expectedNodes;
    this.lastFraction = 1.0 / expectedNodes;
  }

  /** What one exchange decided: C, this node's S_i, and whether the cluster was whole. */
  public record Share(double clusterCapacity, double share, boolean whole) {}

  /**
   * @param ownLoad L_i: subunits of new arrivals in the last whole second ({@code [0]}) and the
   *     one before ({@code [1]})
   * @param ownCapacity this node's capacity: the configured cluster capacity, or with
   *     {@code estimated} this node's own estimate
   * @param estimated whether capacities are estimated per node (then C is their sum)
   */
  public synchronized Share compute(
      long nowSecond, double[] ownLoad, double ownCapacity, boolean estimated, ClusterView view) {
    double capacity = ownCapacity;
    List<NodeReport> members = view.members();
    boolean whole = view.receivedSecond() >= nowSecond - staleSeconds;
    // Loads compare within one second: the last whole one, unless a peer has not reported
    // since it ended, then the one before (a peer two seconds behind is stale anyway).
    boolean lagging = false;
    for (NodeReport r : members) {
      if (estimated && r.capacityEstimate() >= 0) {
        // NaN: a peer configured with a fixed capacity; the nodes disagree, count only ours.
        capacity += r.capacityEstimate();
      }
      whole &= r.second() >= nowSecond - staleSeconds;
      lagging |= r.second() < nowSecond;
    }
    double own = lagging ? ownLoad[1] : ownLoad[0];
    double[] loads = new double[members.size()];
    double totalLoad = own;
    for (int j = 0; j < loads.length; j++) {
      NodeReport r = members.get(j);
      loads[j] = lagging && r.second() >= nowSecond ? r.loadBefore() : r.load();
      totalLoad += loads[j];
    }
    int n = members.size() + 1;
    assembled |= whole && n >= expectedNodes;
    whole &= assembled;
    double fraction;
    if (!estimated) {
      rememberLost(view, members);
    }
    if (!heard && !members.isEmpty()) {
      // The 1/n held before hearing anyone was a guess; the others' reports say what is free.
      heard = true;
      lastFraction = Math.min(lastFraction, Math.max(0, othersLeave(members, lostTotal())));
    }
    if (whole) {
      // A part falls at once; it rises only into the room the others' reports leave.
      double held = lastFraction;
      fraction =
          Math.min(
              part(own, loads, totalLoad, n), Math.max(othersLeave(members, lostTotal()), held));
      lastWholeFraction = fraction;
    } else if (!Double.isNaN(lastWholeFraction)) {
      fraction = lastWholeFraction;
    } else {
      double guess = 1.0 / Math.max(expectedNodes, n);
      fraction = heard ? Math.min(guess, Math.max(0, othersLeave(members, lostTotal()))) : guess;
    }
    lastFraction = fraction;
    return new Share(capacity, fraction * capacity, whole);
  }

  /**
   * Equation 1 with the reserve: every node's part is its load's part of the total, never below
   * {@code RESERVE / n}, and the parts are scaled so that they add up to 1 (the reserve of the
   * idle is taken from the busy, not added on top of C). Every node computes the same parts from
   * the same second's loads.
   */
  private static double part(double own, double[] loads, double totalLoad, int n) {
    if (!(totalLoad > 0)) {
      return 1.0 / n;
    }
    double floor = RESERVE / n;
    double sum = Math.max(own / totalLoad, floor);
    for (double l : loads) {
      sum += Math.max(l / totalLoad, floor);
    }
    return Math.max(own / totalLoad, floor) / sum;
  }

  /**
   * What the other members leave of C, by the parts they last reported holding: a node raises
   * its share only into room the others have given up. A node reads the others' reports a step
   * after they publish them, so after a second ends the node that reports first sees the new loads while the others still
   * hold the parts they computed from the second before; a node whose part fell lowers it at
   * once, and one whose part rose takes the room at its first exchange after the others have
   * reported the lower part. A member that reported no part (NaN) claims nothing; a lost member
   * ({@link #rememberLost}) keeps what it last reported.
   */
  private static double othersLeave(List<NodeReport> members, double lostTotal) {
    double taken = lostTotal;
    for (NodeReport r : members) {
      if (!Double.isNaN(r.fraction())) {
        taken += r.fraction();
      }
    }
    return 1 - taken;
  }

  /**
   * A member that vanished from the view without saying it leaves (its report was dropped after
   * {@code cluster.forgetAfter}) may be alive on the other side of a split, serving its clients
   * with the part it last held. It keeps that part: the nodes on this side share what is left,
   * so the sides of a split longer than {@code forgetAfter} together still promise no more than
   * C. It gets it back when it reports again, and the parts kept are given up when as many
   * members as {@code cluster.expectedNodes} report again (a crashed node restarted under a new
   * id). Otherwise only a restart of the survivors, with {@code cluster.expectedNodes} set to
   * the new size, hands its part out: the operator's word that the cluster shrank. With estimated capacities the lost member's estimate has left C
   * already, and nothing is kept.
   */
  private void rememberLost(ClusterView view, List<NodeReport> members) {
    Map<String, Double> now = new HashMap<>();
    for (NodeReport r : members) {
      now.put(r.node(), Double.isNaN(r.fraction()) ? 0 : r.fraction());
      lost.remove(r.node());
    }
    for (Map.Entry<String, Double> e : lastMembers.entrySet()) {
      if (!now.containsKey(e.getKey()) && !leftCleanly(view, e.getKey())) {
        lost.put(e.getKey(), e.getValue());
      }
    }
    lastMembers = now;
    if (members.size() + 1 >= expectedNodes) {
      lost.clear(); // the cluster is whole again: a crashed node came back under a new id
    }
  }

  private static boolean leftCleanly(ClusterView view, String node) {
    for (NodeReport r : view.others()) {
      if (r.node().equals(node) && r.leaving()) {
        return true;
      }
    }
    return false;
  }

  private double lostTotal() {
    double sum = 0;
    for (double f : lost.values()) {
      sum += f;
    }
    return sum;
  }

  /**
   * The part of C this node holds since the last {@link #compute}: S_i / C, reported to the
   * others ({@link NodeReport#fraction}).
   */
  public synchronized double fraction() {
    return lastFraction;
  }

  /**
   * Σ_{j≠i} N_j[k] of equation 2: the work the other members promised for each of the
   * {@code length} seconds from {@code fromSecond}, stale members included (their promises
   * stand: their clients will come).
   */
  public static double[] othersScheduled(ClusterView view, long fromSecond, int length) {
    double[] sum = new double[length];
    for (NodeReport r : view.others()) {
      for (int k = 0; k < length; k++) {
        sum[k] += r.scheduledAt(fromSecond + k);
      }
    }
    return sum;
  }
}
