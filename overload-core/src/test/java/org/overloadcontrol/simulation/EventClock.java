package org.overloadcontrol.simulation;

import java.util.PriorityQueue;
import java.util.function.LongConsumer;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;

/**
 * The simulations' clock: a ticker, the engine's scheduler and the simulation's own events on
 * one queue, run in time order (ties in the order they were scheduled); the clock jumps from
 * event to event.
 *
 * <p>Not the tests' {@code FakeTicker}: here no test moves the time, the next due event does, so
 * the reading and the scheduler's queue have to be one object.
 */
final class EventClock implements Ticker, Scheduler {

  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private long sequence;
  private long now = 1_000_000_000_000L;

  @Override
  public long read() {
    return now;
  }

  /** Runs {@code body} at {@code at}. */
  void at(long at, Runnable body) {
    events.add(new Event(at, sequence++, body, null));
  }

  /**
   * Runs every event due up to {@code t}, each at its own time, telling {@code beforeEach} the
   * time of each event (and then {@code t}) before the clock moves there.
   */
  void advanceTo(long t, LongConsumer beforeEach) {
    for (; ; ) {
      Event e = events.peek();
      if (e == null || e.at > t) {
        break;
      }
      events.poll();
      if (e.cancelled != null && e.cancelled[0]) {
        continue;
      }
      beforeEach.accept(e.at);
      now = Math.max(now, e.at);
      e.body.run();
    }
    beforeEach.accept(t);
    now = Math.max(now, t);
  }

  @Override
  public Cancellable schedule(Runnable task, long delayNanos) {
    boolean[] cancelled = {false};
    events.add(new Event(now + delayNanos, sequence++, task, cancelled));
    return () -> cancelled[0] = true;
  }

  @Override
  public Cancellable scheduleAtFixedRate(Runnable task, long periodNanos) {
    boolean[] cancelled = {false};
    Runnable[] self = new Runnable[1];
    self[0] =
        () -> {
          task.run();
          events.add(new Event(now + periodNanos, sequence++, self[0], cancelled));
        };
    events.add(new Event(now + periodNanos, sequence++, self[0], cancelled));
    return () -> cancelled[0] = true;
  }

  private record Event(long at, long seq, Runnable body, boolean[] cancelled)
      implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
    }
  }
}
