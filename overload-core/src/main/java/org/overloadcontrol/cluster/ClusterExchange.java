package org.overloadcontrol.cluster;

import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The exchange of WebQ's replicas (Suresh et al., §III-B: "each replica periodically (every
 * second in our implementation) shares with the other replicas its current incoming load"):
 * builds this node's report from its {@link ClusterPart}s, publishes it and hands the others'
 * reports back to the parts. Runs on the timer thread, never a request's; neither call waits on
 * the network ({@link ClusterCoordinator}'s contract).
 *
 * <p>The loads are those of whole Unix seconds, so that all nodes divide the same second's
 * load. The runtime runs the exchange every {@link #PERIOD_NANOS}, a quarter of a second, so
 * that shortly after a second ends every node has reported it. It runs it on the wall clock's
 * quarter seconds plus an eighth, on every node alike, and the bandwidth manager's rounds on the
 * wall clock's multiples of its period: each node then publishes the measurements of the period
 * just ended while the others publish theirs of the same period.
 */
public final class ClusterExchange implements Runnable {

  /** How often the runtime runs the exchange. */
  public static final long PERIOD_NANOS = 250_000_000L;

  private final ClusterCoordinator coordinator;
  private final LongSupplier epochSecond;
  private final List<ClusterPart> parts;

  /**
   * @param epochSecond the current Unix second (the virtual queue's clock)
   */
  public ClusterExchange(
      ClusterCoordinator coordinator, LongSupplier epochSecond, List<ClusterPart> parts) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.epochSecond = Objects.requireNonNull(epochSecond, "epochSecond");
    this.parts = List.copyOf(parts);
    for (ClusterPart p : this.parts) {
      p.expectNodes(coordinator.expectedNodes());
    }
  }

  @Override
  public void run() {
    long now = epochSecond.getAsLong();
    coordinator.publish(report(now).build());
    ClusterView view = coordinator.view();
    for (ClusterPart p : parts) {
      p.apply(view, now);
    }
  }

  /**
   * Publishes this node's last report, marked as leaving: the tokens it issued are still
   * coming, so the others keep counting its promised slots (equation 2), but they take its
   * share of capacity at their next exchange. Call before {@link ClusterCoordinator#close}.
   */
  public void leave() {
    coordinator.publish(report(epochSecond.getAsLong()).leaving().build());
  }

  private NodeReport.Builder report(long now) {
    NodeReport.Builder report = new NodeReport.Builder(coordinator.node(), now);
    for (ClusterPart p : parts) {
      p.report(report, now);
    }
    return report;
  }
}
