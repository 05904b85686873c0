package org.overloadcontrol.internal.cluster;

import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;

/**
 * The exchange of WebQ's replicas (Suresh et al., §III-B: "each replica periodically (every
 * second in our implementation) shares with the other replicas its current incoming load"):
 * builds this node's report from its {@link ClusterPart}s, publishes it and hands the others'
 * reports back to the parts. Runs on the timer thread, never a request's; neither call waits on
 * the network ({@link ClusterCoordinator}'s contract).
 *
 * <p>The loads are those of whole Unix seconds, so that all nodes divide the same second's
 * load. The runtime runs the exchange every {@link #PERIOD_NANOS}, a quarter of a second, on
 * every node alike, in three steps on the wall clock: {@link #publish} at {@link
 * #PUBLISH_AT_NANOS} into the period, {@link #fetch} at {@link #FETCH_AT_NANOS} and {@link
 * #apply} at {@link #APPLY_AT_NANOS}; the bandwidth manager's rounds run at the wall clock's
 * multiples of their period. Each node therefore publishes the measurements of the round just
 * ended, reads the others' after they have published theirs of the same round, and decides on
 * them three sixteenths of a second after that round. Before, a coordinator that ships and reads
 * on its own thread (Hazelcast) handed the parts the view read at the previous exchange, whose
 * other nodes' measurements were a round older (Li &amp; Jamin's shares then lag the returning
 * groups).
 */
public final class ClusterExchange implements Runnable {

  /** How often the runtime runs the exchange. */
  public static final long PERIOD_NANOS = 250_000_000L;

  /**
   * When into each period a node publishes: a sixteenth of a second after a manager round that
   * starts the period, so the report carries that round's measurements.
   */
  public static final long PUBLISH_AT_NANOS = PERIOD_NANOS / 4;

  /**
   * When it asks the cluster for the others' reports: a sixteenth of a second after they
   * published theirs, time enough for a write on a LAN.
   */
  public static final long FETCH_AT_NANOS = PERIOD_NANOS / 2;

  /** When it hands the others' reports to the parts: a sixteenth of a second after the fetch. */
  public static final long APPLY_AT_NANOS = 3 * PERIOD_NANOS / 4;

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

  /** All three steps at once: for tests, and for a coordinator whose view is always current. */
  @Override
  public void run() {
    publish();
    fetch();
    apply();
  }

  /** Builds this node's report from its parts and hands it to the cluster. */
  public void publish() {
    coordinator.publish(report(epochSecond.getAsLong()).build());
  }

  /** Asks the coordinator for the other nodes' latest reports; never waits on the network. */
  public void fetch() {
    coordinator.fetch();
  }

  /** Hands the other nodes' reports, as the coordinator last received them, to the parts. */
  public void apply() {
    long now = epochSecond.getAsLong();
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
