package org.overloadcontrol.internal.metrics;

import java.util.Objects;
import org.overloadcontrol.internal.virtualqueue.VirtualQueue;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;

/**
 * What observability reads of the virtual queue (WebQ, Suresh et al.): how many requests went
 * on to the server, how many of those came back with a valid token (§II-C), how many were told
 * to wait, the refusals by reason, the wait a new arrival would get now (§III-A) and the
 * capacity in force (§IV). Read-only, and an interface so tests can show a state directly.
 */
interface VirtualQueueView {

  /** Requests that went on to the server, with or without a token. */
  long passCount();

  /** Requests that presented a valid token whose slot had come. */
  long tokenAdmittedCount();

  /** Requests told to wait (given a token for a later slot). */
  long waitCount();

  /** Requests refused for {@code reason}. */
  long refusalCount(VirtualQueueRejection reason);

  /** The wait a new arrival would get now, in seconds, or −1 when every slot is full. */
  int currentWaitSeconds();

  /** The capacity in force, hardness-weighted subunits per second; +∞ while training. */
  double capacity();

  /**
   * This node's share S_i of the cluster's capacity (WebQ §III-B, equation 1), subunits per
   * second; the capacity itself when the node runs alone.
   */
  default double share() {
    return capacity();
  }

  /**
   * Token checks the cluster did not answer within {@code cluster.callTimeout}, decided from
   * this node's own set of used tokens; always 0 alone.
   */
  default long unansweredClaims() {
    return 0;
  }

  /** A view of a running queue. */
  static VirtualQueueView of(VirtualQueue queue) {
    Objects.requireNonNull(queue, "queue");
    return new VirtualQueueView() {
      @Override
      public long passCount() {
        return queue.passCount();
      }

      @Override
      public long tokenAdmittedCount() {
        return queue.tokenAdmittedCount();
      }

      @Override
      public long waitCount() {
        return queue.waitCount();
      }

      @Override
      public long refusalCount(VirtualQueueRejection reason) {
        return queue.refusalCount(reason);
      }

      @Override
      public int currentWaitSeconds() {
        return queue.currentWaitSeconds();
      }

      @Override
      public double capacity() {
        return queue.capacity();
      }

      @Override
      public double share() {
        return queue.share();
      }

      @Override
      public long unansweredClaims() {
        return queue.unansweredClaims();
      }
    };
  }
}
