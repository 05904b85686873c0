package org.overloadcontrol.limiter;

import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.RejectionReason;

/**
 * A fourth admission algorithm, for the tests: at most {@code admission.maxLimit} requests of a
 * class at an endpoint at once, never moved. Chosen by {@code admission.controller: fixed}; its
 * registration is the line in {@code META-INF/services} beside the tests. Provider, limiter and
 * permit in one: the provider is the instance the service loader makes, each limiter the one
 * {@link #create} makes.
 */
public final class FixedLimit implements LimiterProvider, Limiter, Permit {

  private final int limit;
  private final AtomicInteger inFlight = new AtomicInteger();

  /** The provider, as the service loader makes it. */
  public FixedLimit() {
    this(0);
  }

  private FixedLimit(int limit) {
    this.limit = limit;
  }

  @Override
  public String name() {
    return "fixed";
  }

  @Override
  public Limiter create(LimiterContext context) {
    return new FixedLimit(context.maxLimit());
  }

  @Override
  public Permit acquire(long nowNanos, int stripe) {
    for (int n = inFlight.get(); n < limit; n = inFlight.get()) {
      if (inFlight.compareAndSet(n, n + 1)) {
        return this;
      }
    }
    return null;
  }

  @Override
  public RejectionReason rejectionReason() {
    return RejectionReason.ADMISSION_LIMIT;
  }

  @Override
  public boolean needsEveryResponseTime() {
    return false;
  }

  @Override
  public void onSuccess(long responseNanos) {
    inFlight.decrementAndGet();
  }

  @Override
  public void onDropped() {
    inFlight.decrementAndGet();
  }

  @Override
  public void onIgnore() {
    inFlight.decrementAndGet();
  }

  /** Requests holding a permit now. */
  int inFlight() {
    return inFlight.get();
  }
}
