package org.overloadcontrol.pipeline;

import java.util.Objects;
import org.overloadcontrol.bandwidth.BandwidthTicket;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.virtualqueue.VirtualQueueFrontEnd;

/**
 * One request under control, as every adapter reports its end: {@link #finish} settles the
 * outcome with the engine once (the engine's {@code complete} refuses a second report) and then,
 * only for the call that settled it, tells each feature that measures completions: the
 * bandwidth ticket gets the response's bytes (Li &amp; Jamin §V: bytes over response time) or
 * is cancelled for a request that did not run, and the virtual queue gets the response time of
 * a request that passed it (WebQ §IV, the passive capacity estimate). Written once here so the
 * servlet filter and the Jetty handler cannot report differently.
 *
 * <p>Thread-safety: the features are set on the request's own thread before anything can
 * finish it; {@code finish} may run on any thread, any number of times.
 */
public final class Exchange {

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final VirtualQueueFrontEnd virtualQueue;
  private volatile BandwidthTicket ticket = BandwidthTicket.NONE;
  private volatile String queueType;

  /**
   * @param virtualQueue the virtual queue told of completions, or null when there is none
   */
  public Exchange(OverloadEngine engine, RequestTag tag, VirtualQueueFrontEnd virtualQueue) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.tag = Objects.requireNonNull(tag, "tag");
    this.virtualQueue = virtualQueue;
  }

  public RequestTag tag() {
    return tag;
  }

  /** The request passed the virtual queue as a request of {@code type}. */
  public void passedQueue(String type) {
    this.queueType = type;
  }

  /** The request is shaped: its bytes and time are reported to {@code shaped}. */
  public void shaped(BandwidthTicket shaped) {
    this.ticket = Objects.requireNonNull(shaped, "ticket");
  }

  /**
   * Reports how the request ended.
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return true if this call settled the outcome, false if it had been reported already
   */
  public boolean finish(Outcome outcome, long bytes) {
    if (!engine.complete(tag, outcome, bytes)) {
      return false;
    }
    if (outcome.executed()) {
      ticket.complete(Math.max(0L, bytes));
      String type = queueType;
      if (type != null && virtualQueue != null) {
        virtualQueue.complete(type, engine.ticker().read() - tag.arrivalNanos(),
            outcome == Outcome.COMPLETED);
      }
    } else {
      ticket.cancel();
    }
    return true;
  }
}
