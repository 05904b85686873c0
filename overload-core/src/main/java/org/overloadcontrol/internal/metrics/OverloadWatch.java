package org.overloadcontrol.internal.metrics;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;

/**
 * Judges each endpoint's {@link EndpointState} once per period, for the log, the metrics, the
 * status document, the dashboard and the health contributor, so that all of them say the same
 * word.
 *
 * <p>Each state is judged over a window, the last {@code metrics.overloadQuietPeriod} (5 s):
 *
 * <ul>
 *   <li>{@link EndpointState#SHEDDING}: the endpoint refused or expired a request within the
 *       window, whatever its p90: 90 % refused under a p90 far below target is what its users
 *       see, and the {@link StateReading} carries that share;
 *   <li>{@link EndpointState#DEGRADED}: its quality level was under 1 at a check within the
 *       window;
 *   <li>{@link EndpointState#LIMITING}: at a check within the window, a request of it had waited
 *       for a permit since the check before, one was waiting, its concurrency group was at its
 *       limit, or a class with a target had its p90 at or over it (under a concurrency limit:
 *       more than 10 % of its recent responses over it, as the limit's controller measured
 *       them; a p90 not known yet is not a miss);
 *   <li>{@link EndpointState#HEALTHY}: none of these.
 * </ul>
 *
 * The most severe that holds wins (the order of the enum). The window is the hysteresis: an
 * endpoint leaves a state a full window after the last check that saw its cause, so one whose
 * p90 hovers around its target, or that refuses a request every second or two, keeps one state
 * and the log gets one line per change, not one per second.
 *
 * <p>It reads only the engine's counters and controllers, once per period on the adapter's
 * scheduler thread; requests pay nothing for it. Readers on other threads see the state of the
 * last check.
 */
public final class OverloadWatch {

  /** A share of responses over the target above which the p90 is over it. */
  private static final double MISS_SHARE_OF_P90 = 0.1;

  /** A time long before any check, without overflow when subtracted from one. */
  private static final long NEVER = Long.MIN_VALUE / 4;

  private final long periodNanos;
  private final long windowNanos;
  private final StateChange.Listener listener;
  private final ConcurrentHashMap<String, Track> tracks = new ConcurrentHashMap<>();

  /** What the watch remembers of one endpoint between checks (written on the watch's thread). */
  private static final class Track {
    final RefusalWindow window;
    long refused;
    long answered;
    long enqueued;
    long lastLimitingNanos = NEVER;
    long lastDegradedNanos = NEVER;
    volatile StateReading reading = StateReading.NONE;

    Track(RefusalWindow window) {
      this.window = window;
    }
  }

  /**
   * @param periodNanos how often {@link #check} is called
   * @param windowNanos the window each state is judged over (see the class comment)
   */
  public OverloadWatch(long periodNanos, long windowNanos, StateChange.Listener listener) {
    this.periodNanos = periodNanos;
    this.windowNanos = windowNanos;
    this.listener = listener;
  }

  /** The state of {@code endpoint} at the last check; healthy before its first. */
  public EndpointState state(String endpoint) {
    return reading(endpoint).state();
  }

  /** The state of {@code endpoint} at the last check and what it was judged on. */
  public StateReading reading(String endpoint) {
    Track t = tracks.get(endpoint);
    return t == null ? StateReading.NONE : t.reading;
  }

  /** How many of {@code endpoints} are in each state, every state present. */
  public Map<EndpointState, Integer> counts(List<ControlledEndpoint> endpoints) {
    Map<EndpointState, Integer> counts = new EnumMap<>(EndpointState.class);
    for (EndpointState s : EndpointState.values()) {
      counts.put(s, 0);
    }
    for (ControlledEndpoint e : endpoints) {
      counts.merge(state(e.name()), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Judges every endpoint at {@code now} and tells the listener of each change. An endpoint
   * seen for the first time starts from zero: everything it counted happened since it was
   * created, within the last period.
   */
  public synchronized void check(List<ControlledEndpoint> endpoints, long now) {
    for (ControlledEndpoint e : endpoints) {
      Track t =
          tracks.computeIfAbsent(
              e.name(), n -> new Track(new RefusalWindow(windowNanos, now - periodNanos)));
      long refused = 0;
      long answered = 0;
      long enqueued = 0;
      for (EndpointClass ec : e.classes()) {
        refused += Readings.shed(ec);
        enqueued += ec.enqueuedCount();
        for (Outcome o : Outcome.values()) {
          answered += ec.outcomeCount(o);
        }
      }
      t.window.add(now, refused - t.refused, answered - t.answered);
      boolean waited = enqueued > t.enqueued;
      t.refused = refused;
      t.answered = answered;
      t.enqueued = enqueued;
      if (waited || limited(e)) {
        t.lastLimitingNanos = now;
      }
      if (e.qualityController() != null && e.quality() < 1.0) {
        t.lastDegradedNanos = now;
      }
      StateReading before = t.reading;
      StateReading after =
          new StateReading(
              judge(t, now), t.window.refused(), t.window.answered(), t.window.coveredNanos(now));
      t.reading = after;
      if (after.state() != before.state()) {
        listener.onStateChange(new StateChange(e, before.state(), after));
      }
    }
  }

  private EndpointState judge(Track t, long now) {
    if (t.window.refused() > 0) {
      return EndpointState.SHEDDING;
    }
    if (now - t.lastDegradedNanos < windowNanos) {
      return EndpointState.DEGRADED;
    }
    if (now - t.lastLimitingNanos < windowNanos) {
      return EndpointState.LIMITING;
    }
    return EndpointState.HEALTHY;
  }

  /**
   * Whether admission control holds {@code e} back now: a request waits for a permit, its
   * concurrency group is at its limit, or a class misses its target.
   */
  private static boolean limited(ControlledEndpoint e) {
    EndpointLoad load = EndpointLoad.of(e);
    if (load.waiting() > 0 || load.groupFull()) {
      return true;
    }
    return missesTarget(e);
  }

  /**
   * Whether some class of {@code e} with a target misses it: its p90 estimate at or above it,
   * or under a concurrency limit, more than 10 % of its recent responses over it.
   */
  static boolean missesTarget(ControlledEndpoint e) {
    for (EndpointClass ec : e.classes()) {
      ClassController c = ec.controller();
      long target = c.targetNanos();
      if (target <= 0) {
        continue;
      }
      ConcurrencyGroup.Partition partition = ec.concurrency();
      if (partition != null) {
        // Under a concurrency limit, what its controller measured: the share of the class's
        // recent responses, wait included, over the target (over 10 %: its p90 is over it).
        // The token-bucket estimate is smoothed and updated every 100 samples or 1 s, and
        // lagged the limit's windows of 100 ms.
        if (partition.missShare() > MISS_SHARE_OF_P90) {
          return true;
        }
        continue;
      }
      long estimate = ec.p90().estimateNanos();
      if (estimate >= target) {
        return true;
      }
    }
    return false;
  }
}
