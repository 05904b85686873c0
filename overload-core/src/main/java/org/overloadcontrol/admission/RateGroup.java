package org.overloadcontrol.admission;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The rate controllers of the endpoints that share one bottleneck (a resource group): what they
 * completed together, and the rates they admit at together. Not in Welsh &amp; Culler 2003,
 * whose §3.2 controller runs per endpoint and class; with several endpoints on one database
 * each class's own completions are only its share, and each class's own cut of 1.2 a round
 * leaves the total far above what the database completes while the cuts take seconds to show
 * (the two-class experiment, {@code TwoClassSpikeTest}). A class that misses its target
 * therefore also scales its rate so that the group's total is no more than the group's
 * completions per second divided by adj_d: while requests queue, the completions are the
 * capacity, and a total a step below them drains the queue.
 *
 * <p>Touched only by rounds (each endpoint's under its own guard): the completions under this
 * object's lock, the rates read from the buckets. Nothing on the request path.
 */
public final class RateGroup {

  /** Completions are counted over this many round timeouts before they make a rate. */
  static final int WINDOW_ROUNDS = 10;

  private final CopyOnWriteArrayList<EndpointAdmissionController> members =
      new CopyOnWriteArrayList<>();

  private long windowStartNanos;
  private boolean started;
  private double windowCount;
  private double completionsPerSecond = Double.NaN;

  void join(EndpointAdmissionController member) {
    members.add(member);
  }

  /** Whether more than one endpoint shares the group. */
  boolean shared() {
    return members.size() > 1;
  }

  /** Adds a round's completions (scaled by 1/p), closing a window of completions when due. */
  synchronized void completed(double count, long now, long timeoutNanos) {
    if (!started) {
      started = true;
      windowStartNanos = now;
    }
    windowCount += count;
    long elapsed = now - windowStartNanos;
    if (elapsed >= WINDOW_ROUNDS * timeoutNanos) {
      completionsPerSecond = windowCount * 1e9 / elapsed;
      windowCount = 0;
      windowStartNanos = now;
    }
  }

  /** The group's completions per second over its last closed window, NaN before the first. */
  synchronized double completionsPerSecond() {
    return completionsPerSecond;
  }

  /**
   * The rates the group's controlled classes admit at, summed over the classes active in the
   * last {@code idleNanos} (a class gone does not hold the others down).
   */
  double activeRate(long now, long idleNanos) {
    double sum = 0;
    for (EndpointAdmissionController member : members) {
      for (ClassController c : member.classes()) {
        if (c.controlled() && now - c.activeAtNanos() < idleNanos) {
          sum += c.rate();
        }
      }
    }
    return sum;
  }

  /**
   * The group's controlled requests in flight (admitted, not yet answered), or −1 when a class
   * does not count them ({@link ClassController#countInFlight}).
   */
  long inFlight() {
    long sum = 0;
    for (EndpointAdmissionController member : members) {
      for (ClassController c : member.classes()) {
        if (c.controlled()) {
          long n = c.inFlight();
          if (n < 0) {
            return -1;
          }
          sum += n;
        }
      }
    }
    return sum;
  }

  /**
   * Whether the group's queue is longer than {@code setpointNanos} of its completions (Little's
   * law: requests in flight over completions per second is the time a request admitted now
   * will wait, read before any of them completes). False when either is unknown.
   *
   * @param deciding arrivals counted in flight that are not admitted yet: the one whose round
   *     asks. Counted, a group completing under 1 / setpoint requests a second looked queued at
   *     every round an arrival ran, and its classes at {@code rateMin} never rose again.
   */
  boolean queuedOver(long setpointNanos, long deciding) {
    double completed = completionsPerSecond();
    long n = inFlight();
    if (n < 0 || Double.isNaN(completed)) {
      return false;
    }
    return (n - deciding) * 1e9 > setpointNanos * Math.max(completed, 1.0);
  }

  /**
   * Whether a controlled class ranked above {@code rank} was active in the group in the last
   * {@code idleNanos} (see {@link ClassController#activeAtNanos}).
   */
  boolean higherActive(int rank, long now, long idleNanos) {
    for (EndpointAdmissionController member : members) {
      for (ClassController c : member.classes()) {
        if (c.controlled() && c.requestClass().rank() > rank && c.presentAt(now, idleNanos)) {
          return true;
        }
      }
    }
    return false;
  }
}
