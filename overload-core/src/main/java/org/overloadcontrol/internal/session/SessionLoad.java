package org.overloadcontrol.internal.session;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many sessions one resource group can take, from its measured load (Cherkasova &amp; Phaal
 * 2002, §4: admit new sessions only while the admitted ones leave the server room). Per
 * window it measures the request rate of admitted sessions at the group, per admitted session,
 * and the group's completions per second; the completions of windows in which the group's
 * concurrency limit was reached are its capacity (a window below the limit only raises it).
 *
 * <p>The rule, {@link #roomFor}: a new session is admitted while
 * {@code sessions × ratePerSession < headroom × capacity}, where {@code sessions} is the count
 * of active sessions now, so every session admitted counts at once, before it has sent its next
 * request. While the
 * group has not reached its limit for three windows, and not now, there is room whatever the
 * estimate says: a capacity measured below saturation is only a lower bound.
 *
 * <p>The capacity follows a saturated window's completions up at once and down slowly
 * ({@link #FALL_WEIGHT}): while new sessions are being refused, the group's throughput is what
 * the gate let in, not what the group can do, and an estimate that followed it down as fast
 * would admit less in each window than in the one before (measured on the shop: the gate held
 * it at 0.5 of its capacity). A group that really slowed down is caught sooner by its waiting
 * requests ({@link SessionGate}).
 *
 * <p>Sessions counted are the active ones (a request in the window): an admitted user who left
 * stays in the table until his idle timeout, and counting him would dilute the rate per session
 * so that each new session looked cheaper than it is.
 *
 * <p>Concurrency: arrivals and completions are {@link LongAdder}s; the window closes under this
 * object's lock on the engine's periodic task; the estimates are volatile doubles read lock-free.
 */
final class SessionLoad {

  /** EWMA weight of the newest window. */
  private static final double WEIGHT = 0.5;

  /** EWMA weight of a saturated window whose completions fell below the capacity. */
  private static final double FALL_WEIGHT = 0.05;

  /** Windows after the last saturated one during which the estimate still governs. */
  private static final int SATURATED_WINDOWS = 3;

  private final LongAdder sessionArrivals = new LongAdder();
  private final LongAdder completions = new LongAdder();
  private volatile boolean saturatedInWindow;
  private volatile double ratePerSession = Double.NaN;
  private volatile double capacity = Double.NaN;
  private volatile int windowsSinceSaturated = Integer.MAX_VALUE;

  SessionLoad() {}

  /** A request of an admitted session arrived at the group. */
  void sessionArrival() {
    sessionArrivals.increment();
  }

  /** A request of the group executed to its end. */
  void completion() {
    completions.increment();
  }

  /** The group's in-flight count reached its limit. */
  void saturated() {
    if (!saturatedInWindow) {
      saturatedInWindow = true;
    }
  }

  /**
   * Closes a window of {@code seconds} in which {@code sessions} admitted sessions sent a
   * request (anywhere): the rate per session is that of the sessions that are active, not of
   * every entry of the table, so that users who left without a word do not dilute it.
   */
  synchronized void closeWindow(double seconds, int sessions) {
    double arrivals = sessionArrivals.sumThenReset() / seconds;
    double done = completions.sumThenReset() / seconds;
    boolean saturated = saturatedInWindow;
    saturatedInWindow = false;
    if (sessions > 0) {
      double sample = arrivals / sessions;
      double old = ratePerSession;
      ratePerSession = Double.isNaN(old) ? sample : (1 - WEIGHT) * old + WEIGHT * sample;
    }
    double c = capacity;
    if (saturated) {
      capacity = Double.isNaN(c) || done >= c ? done : (1 - FALL_WEIGHT) * c + FALL_WEIGHT * done;
      windowsSinceSaturated = 0;
    } else {
      if (Double.isNaN(c) || done > c) {
        capacity = done;
      }
      if (windowsSinceSaturated < Integer.MAX_VALUE) {
        windowsSinceSaturated++;
      }
    }
  }

  /** Whether a new session may be admitted now, with {@code sessions} admitted already. */
  boolean roomForNew(int sessions, boolean saturatedNow, double headroom) {
    if (!saturatedNow && windowsSinceSaturated > SATURATED_WINDOWS) {
      return true;
    }
    return roomFor(sessions, ratePerSession, capacity, headroom);
  }

  /**
   * The admit-new-sessions rule: {@code sessions × ratePerSession < headroom × capacity}; with
   * no measurement yet (NaN) there is room.
   */
  static boolean roomFor(int sessions, double ratePerSession, double capacity, double headroom) {
    if (Double.isNaN(ratePerSession) || Double.isNaN(capacity)) {
      return true;
    }
    return sessions * ratePerSession < headroom * capacity;
  }

  double ratePerSession() {
    return ratePerSession;
  }

  double capacity() {
    return capacity;
  }
}
