package org.overloadcontrol.metrics;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.engine.Endpoint;
import org.overloadcontrol.engine.EndpointClass;

/**
 * Decides when an endpoint is overloaded, for the log, the {@code overloaded} metric and the
 * dashboard. An endpoint <em>enters</em> overload in a period in which it shed at least one
 * request (refused by its admission controller or a full queue, or expired in a queue); it
 * <em>leaves</em> once it has shed nothing for the quiet period. Shedding is the observable
 * effect of overload control, whatever controller caused it (token bucket, queue threshold,
 * queue bound or deadline), and the quiet period gives hysteresis: an endpoint that sheds now
 * and then is one episode, not a line per second in the log.
 *
 * <p>It reads only the engine's counters, once per period, on the filter's scheduler thread;
 * requests pay nothing for it.
 */
public final class OverloadWatch {

  private final long periodNanos;
  private final long quietNanos;
  private final OverloadEvent.Listener listener;
  private final ConcurrentHashMap<String, State> states = new ConcurrentHashMap<>();

  private static final class State {
    long shed;
    long arrivals;
    long lastCheckNanos;
    volatile boolean overloaded;
    long lastShedNanos;
    long episodeStartNanos;
    long episodeShed;
    long episodeArrivals;
  }

  /**
   * @param periodNanos how often {@link #check} is called
   * @param quietNanos how long an endpoint must shed nothing to leave overload
   */
  public OverloadWatch(long periodNanos, long quietNanos, OverloadEvent.Listener listener) {
    this.periodNanos = periodNanos;
    this.quietNanos = quietNanos;
    this.listener = listener;
  }

  /** Whether {@code endpoint} is overloaded now. */
  public boolean overloaded(String endpoint) {
    State s = states.get(endpoint);
    return s != null && s.overloaded;
  }

  /**
   * Looks at every endpoint's counters at {@code now}. An endpoint seen for the first time
   * starts from zero: everything it counted happened since it was created, within the last
   * period.
   */
  public synchronized void check(List<Endpoint> endpoints, long now) {
    for (Endpoint e : endpoints) {
      State s = states.computeIfAbsent(e.name(), n -> {
        State fresh = new State();
        fresh.lastCheckNanos = now - periodNanos;
        return fresh;
      });
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
      }
      if (s.overloaded) {
        s.episodeShed += newShed;
        s.episodeArrivals += newArrivals;
        long quiet = now - s.lastShedNanos;
        if (quiet >= quietNanos) {
          s.overloaded = false;
          listener.onOverloadChange(new OverloadEvent(e, false, s.episodeShed,
              s.episodeArrivals, now - s.episodeStartNanos, quiet));
        }
      } else if (newShed > 0) {
        s.overloaded = true;
        s.episodeStartNanos = now;
        s.episodeShed = newShed;
        s.episodeArrivals = newArrivals;
        listener.onOverloadChange(new OverloadEvent(e, true, newShed, newArrivals, period, 0L));
      }
    }
  }
}
