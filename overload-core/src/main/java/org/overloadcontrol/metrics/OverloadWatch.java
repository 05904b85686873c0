package org.overloadcontrol.metrics;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.admission.ClassController;
import org.overloadcontrol.admission.ConcurrencyGroup;
import org.overloadcontrol.engine.ControlledEndpoint;
import org.overloadcontrol.engine.EndpointClass;

/**
 * Decides when an endpoint is shedding and when it is overloaded, for the log, the
 * {@code overloaded} metric, the status document and the dashboard.
 *
 * <p><b>Shedding</b>: the endpoint refused (admission controller, full queue) or expired a
 * request within the last quiet period. Shedding alone is not overload: a token bucket holding
 * an endpoint at its rate (with the paper's bucket depth of 1, two requests closer together
 * than 1/rate) sheds while the requests it admits are served far under their target.
 *
 * <p><b>Overloaded</b>: shedding <em>and</em> missing the response-time target, i.e. some class
 * of the endpoint that has a target has a p90 estimate (the admission controller's smoothed
 * estimate, the value the dashboard plots) at or above that target; under a concurrency limit,
 * more than 10 % of the class's recent responses over its target, as the limit's controller
 * measured them. An endpoint whose p90 is
 * under its target is never called overloaded, whatever it sheds; a p90 not known yet is not a
 * miss. An endpoint without any target (only wait queues protect it) has no response time to
 * miss, so there shedding alone is overload.
 *
 * <p>The log sees episodes: an endpoint <em>enters</em> overload in a period in which it shed
 * and missed its target, and <em>leaves</em> once a quiet period has passed without that; the
 * quiet period gives hysteresis, so an endpoint whose p90 hovers around its target is one
 * episode, not a line per second. {@link #overloaded} is that episode, narrowed by the p90 read
 * at the moment it is asked, so a document never shows an endpoint overloaded next to a p90
 * under its target.
 *
 * <p>It reads only the engine's counters and controllers, once per period on the adapter's
 * scheduler thread, or when a status document is written; requests pay nothing for it.
 */
public final class OverloadWatch {

  /** A share of responses over the target above which the p90 is over it. */
  private static final double MISS_SHARE_OF_P90 = 0.1;

  private final long periodNanos;
  private final long quietNanos;
  private final OverloadEvent.Listener listener;
  private final ConcurrentHashMap<String, State> states = new ConcurrentHashMap<>();

  private static final class State {
    volatile ControlledEndpoint endpoint;
    long shed;
    long arrivals;
    long lastCheckNanos;
    volatile boolean inEpisode;
    volatile boolean shedding;
    long lastShedNanos;
    long lastTroubleNanos;
    long episodeStartNanos;
    long episodeShed;
    long episodeArrivals;
  }

  /**
   * @param periodNanos how often {@link #check} is called
   * @param quietNanos how long an endpoint must go without shedding (or without shedding while
   *     it misses its target) to stop shedding (or leave overload)
   */
  public OverloadWatch(long periodNanos, long quietNanos, OverloadEvent.Listener listener) {
    this.periodNanos = periodNanos;
    this.quietNanos = quietNanos;
    this.listener = listener;
  }

  /**
   * Whether {@code endpoint} is overloaded now: in an overload episode and, read now, missing
   * its target (see the class comment).
   */
  public boolean overloaded(String endpoint) {
    State s = states.get(endpoint);
    return s != null && s.inEpisode && missesTarget(s.endpoint);
  }

  /** Whether {@code endpoint} shed a request within the last quiet period. */
  public boolean shedding(String endpoint) {
    State s = states.get(endpoint);
    return s != null && s.shedding;
  }

  /**
   * Whether an endpoint misses its response-time target: some class with a target has a p90
   * estimate at or above it; true for an endpoint none of whose classes has a target.
   */
  static boolean missesTarget(ControlledEndpoint e) {
    boolean anyTarget = false;
    for (EndpointClass ec : e.classes()) {
      ClassController c = ec.controller();
      long target = c.targetNanos();
      if (target <= 0) {
        continue;
      }
      anyTarget = true;
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
      long estimate = c.estimateNanos();
      if (estimate >= target) {
        return true;
      }
    }
    return !anyTarget;
  }

  /**
   * Looks at every endpoint's counters at {@code now}. An endpoint seen for the first time
   * starts from zero: everything it counted happened since it was created, within the last
   * period.
   */
  public synchronized void check(List<ControlledEndpoint> endpoints, long now) {
    for (ControlledEndpoint e : endpoints) {
      State s =
          states.computeIfAbsent(
              e.name(),
              n -> {
                State fresh = new State();
                fresh.lastCheckNanos = now - periodNanos;
                return fresh;
              });
      s.endpoint = e;
      long shed = 0;
      long arrivals = 0;
      for (EndpointClass ec : e.classes()) {
        shed += Readings.shed(ec);
        arrivals += ec.arrivalCount();
      }
      long newShed = shed - s.shed;
      long newArrivals = arrivals - s.arrivals;
      long period = now - s.lastCheckNanos;
      s.shed = shed;
      s.arrivals = arrivals;
      s.lastCheckNanos = now;
      if (newShed > 0) {
        s.lastShedNanos = now;
        s.shedding = true;
      } else if (s.shedding && now - s.lastShedNanos >= quietNanos) {
        s.shedding = false;
      }
      boolean trouble = newShed > 0 && missesTarget(e);
      if (trouble) {
        s.lastTroubleNanos = now;
      }
      if (s.inEpisode) {
        s.episodeShed += newShed;
        s.episodeArrivals += newArrivals;
        long quiet = now - s.lastTroubleNanos;
        if (quiet >= quietNanos) {
          s.inEpisode = false;
          listener.onOverloadChange(
              new OverloadEvent(
                  e, false, s.episodeShed, s.episodeArrivals, now - s.episodeStartNanos, quiet));
        }
      } else if (trouble) {
        s.inEpisode = true;
        s.episodeStartNanos = now;
        s.episodeShed = newShed;
        s.episodeArrivals = newArrivals;
        listener.onOverloadChange(new OverloadEvent(e, true, newShed, newArrivals, period, 0L));
      }
    }
  }
}
