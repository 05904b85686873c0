package org.overloadcontrol.cluster;

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
 * capacity, so the sides of a split together still promise about C. A member that leaves
 * cleanly says so in its last report, and a silent one is forgotten when the coordinator drops
 * its report; after that the cluster is whole again and the survivors share all of C.
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

  public CapacityShare(int staleSeconds, int expectedNodes) {
    if (staleSeconds < 1 || expectedNodes < 1) {
      throw new IllegalArgumentException("staleSeconds and expectedNodes must be >= 1");
    }
    this.staleSeconds = staleSeconds;
    this.expectedNodes = expectedNodes;
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
    java.util.List<NodeReport> members = view.members();
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
    double totalLoad = own;
    for (NodeReport r : members) {
      totalLoad += lagging && r.second() >= nowSecond ? r.loadBefore() : r.load();
    }
    int n = members.size() + 1;
    assembled |= whole && n >= expectedNodes;
    whole &= assembled;
    double fraction;
    if (whole) {
      fraction = totalLoad > 0 ? own / totalLoad : 1.0 / n;
      fraction = Math.max(fraction, RESERVE / n);
      lastWholeFraction = fraction;
    } else if (!Double.isNaN(lastWholeFraction)) {
      fraction = lastWholeFraction;
    } else {
      fraction = 1.0 / Math.max(expectedNodes, n);
    }
    return new Share(capacity, fraction * capacity, whole);
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
