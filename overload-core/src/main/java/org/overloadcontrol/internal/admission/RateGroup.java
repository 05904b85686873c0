package org.overloadcontrol.internal.admission;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

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
 * <p>Touched only by rounds (each endpoint's under its own guard): the completions and the
 * silences under their locks, the rates read from the buckets. A round runs on the request
 * thread that closes it, so these are {@link ReentrantLock}s, not monitors: a virtual thread
 * that found a monitor taken would pin its carrier thread on Java 21 to 23.
 */
public final class RateGroup {

  /** Completions are counted over this many round timeouts before they make a rate. */
  static final int WINDOW_ROUNDS = 10;

  private final CopyOnWriteArrayList<EndpointAdmissionController> members =
      new CopyOnWriteArrayList<>();

  /**
   * Per class name: the longest silence in the group in the current half horizon, when that
   * half began, the longest in the half before, and the horizon.
   */
  private final Map<String, long[]> silences = new HashMap<>();

  private final ReentrantLock silencesLock = new ReentrantLock();
  private final ReentrantLock completionsLock = new ReentrantLock();

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
  void completed(double count, long now, long timeoutNanos) {
    completionsLock.lock();
    try {
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
    } finally {
      completionsLock.unlock();
    }
  }

  /** The group's completions per second over its last closed window, NaN before the first. */
  double completionsPerSecond() {
    completionsLock.lock();
    try {
      return completionsPerSecond;
    } finally {
      completionsLock.unlock();
    }
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
   * Whether a controlled class ranked above {@code rank} is still present in the group: active
   * (see {@link ClassController#activeAtNanos}) at any of its endpoints in the last
   * {@code idleNanos}, or within its longest recent silence and half a timeout more
   * ({@link #noteSilence}).
   */
  boolean higherActive(int rank, long now, long idleNanos) {
    for (EndpointAdmissionController member : members) {
      for (ClassController c : member.classes()) {
        if (c.controlled() && c.requestClass().rank() > rank) {
          long silence = silenceNanos(c.requestClass().name(), now);
          long window = Math.max(idleNanos, silence + c.settings().parameters().timeoutNanos() / 2);
          if (now - c.activeAtNanos() < window) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Notes, at the start of a round of class c (run by its arrival or completion at one
   * endpoint), how long c's class had been silent in the whole group before it: no admission,
   * refusal or sample at any endpoint. The longest such silence of the last
   * {@code horizonNanos} is how long the class may fall silent while it is still there, and
   * still hold the lower classes down: in the two-class experiment the refused high users (all
   * 60, pausing 500 ms together) came back every 500 ms with up to 400 ms of silence between,
   * and each silence gave the low class the group's rate, to queue at the database just before
   * the next wave. A gap of {@code horizonNanos} or more is a leaving and a return, not kept.
   */
  void noteSilence(ClassController c, long now, long horizonNanos) {
    String name = c.requestClass().name();
    long latest = Long.MIN_VALUE;
    boolean any = false;
    for (EndpointAdmissionController member : members) {
      for (ClassController other : member.classes()) {
        if (other.requestClass().name().equals(name)) {
          long at = other.activeAtNanos();
          if (!any || at - latest > 0) {
            latest = at;
            any = true;
          }
        }
      }
    }
    // A bucket in debt puts its bound on the last admission ahead of now.
    long gap = Math.max(0L, now - latest);
    if (!any || gap >= horizonNanos) {
      return;
    }
    silencesLock.lock();
    try {
      // A sliding maximum over the last half to whole horizon, in two halves: the current
      // half's longest gap and the one before it.
      long[] s = silences.computeIfAbsent(name, k -> new long[] {0L, now, 0L, horizonNanos});
      long age = now - s[1];
      if (age >= horizonNanos / 2) {
        s[2] = age >= horizonNanos ? 0L : s[0];
        s[0] = 0L;
        s[1] = now;
      }
      s[0] = Math.max(s[0], gap);
      s[3] = horizonNanos;
    } finally {
      silencesLock.unlock();
    }
  }

  /** The longest silence of class {@code name} noted in the last horizon, 0 if none. */
  private long silenceNanos(String name, long now) {
    silencesLock.lock();
    try {
      long[] s = silences.get(name);
      if (s == null) {
        return 0L;
      }
      long age = now - s[1];
      return age >= s[3] ? 0L : age >= s[3] / 2 ? s[0] : Math.max(s[0], s[2]);
    } finally {
      silencesLock.unlock();
    }
  }
}
