package org.overloadcontrol.internal.engine;

import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.Permit;

/**
 * The rate controller (Welsh &amp; Culler 2003, §3.2–3.3) as a {@link Limiter}: a token from
 * the class's bucket admits. Its feedback is the engine's p90 measurement, which every endpoint
 * has, so its permit hears nothing. Under a concurrency limit the same rounds only measure and
 * the bucket admits everything ({@link ConcurrencyLimiter} takes its token from one of these
 * and refuses as it does).
 */
final class TokenBucketLimiter implements Limiter {

  private final EndpointAdmissionController admission;

  private final ClassController controller;
  private final EndpointClass route;
  private final Ticker ticker;

  TokenBucketLimiter(EndpointClass route, Ticker ticker) {
    this.route = route;
    this.admission = route.admission;
    this.controller = route.controller();
    this.ticker = ticker;
  }

  @Override
  public Permit acquire(long nowNanos, int stripe) {
    return takeToken(nowNanos, stripe) ? Unreported.PERMIT : null;
  }

  /**
   * Whether the class's bucket gives a token at {@code nowNanos}, or else on a fresh reading; a
   * refusal is counted open on the route until its outcome is reported.
   */
  boolean takeToken(long nowNanos, int stripe) {
    if (admission.tryAdmit(controller, nowNanos, stripe)
        || admission.tryAdmit(controller, ticker.read(), stripe)) {
      return true;
    }
    // Refused only on a fresh reading: a thread preempted between reading the clock and
    // taking its token sees the bucket moved on by others, and its old reading makes the
    // bucket look further in debt than it is (measured: a few spurious 503s a second on a
    // busy 2-core machine at 10^5 requests/s). The second try costs the refusal path only.
    route.countRejection(stripe);
    return false;
  }

  @Override
  public RejectionReason rejectionReason() {
    return RejectionReason.ADMISSION_RATE;
  }

  @Override
  public long retryAfterNanos(long nowNanos) {
    return controller.nanosUntilToken(nowNanos);
  }

  @Override
  public boolean needsEveryResponseTime() {
    // Its rounds read the sampled response times only.
    return false;
  }
}
