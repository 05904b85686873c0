package org.overloadcontrol.internal.bandwidth;

import java.util.concurrent.atomic.AtomicBoolean;
import org.overloadcontrol.base.Ticker;

/**
 * One shaped request's hold on its group, handed out with an admit or delay decision. The
 * adapter calls {@link #delayEnded()} when a delayed request resumes, and exactly one of
 * {@link #complete(long)} (the response was sent: measure it) or {@link #cancel()} (it was not:
 * measure nothing). Each is idempotent, so a timer racing a client disconnect cannot release the
 * standby place twice.
 */
public final class BandwidthTicket {

  /** The ticket of a request that is not shaped: every call does nothing. */
  public static final BandwidthTicket NONE = new BandwidthTicket(null, null, 0, 0, false);

  private final GroupMeter meter;
  private final Ticker ticker;
  private final double alpha;
  private final long startNanos;
  // CAS-once flags: the resume timer, the completion and a cancellation may run on different
  // threads; each releases what it holds exactly once.
  private final AtomicBoolean inStandby;
  private final AtomicBoolean finished = new AtomicBoolean();

  BandwidthTicket(
      GroupMeter meter, Ticker ticker, double alpha, long startNanos, boolean inStandby) {
    this.meter = meter;
    this.ticker = ticker;
    this.alpha = alpha;
    this.startNanos = startNanos;
    this.inStandby = new AtomicBoolean(inStandby);
  }

  /** The group the request was shaped in, or null for an unshaped request. */
  public ClientGroup group() {
    return meter == null ? null : meter.group();
  }

  /** The delay is over: the request leaves the delayed stage and may run. */
  public void delayEnded() {
    if (meter != null && inStandby.compareAndSet(true, false)) {
      meter.leaveStandby();
    }
  }

  /**
   * The response of {@code bytes} was sent: records its perceived bandwidth, bytes over the time
   * since the decision (delay included, which is what lets the delay bring the measurement to
   * the target, §V.C).
   */
  public void complete(long bytes) {
    delayEnded();
    if (meter != null && finished.compareAndSet(false, true) && bytes > 0) {
      meter.recordSample(bytes, ticker.read() - startNanos, alpha);
    }
  }

  /** The request ended without a response worth measuring (client gone, error). */
  public void cancel() {
    delayEnded();
    finished.set(true);
  }
}
