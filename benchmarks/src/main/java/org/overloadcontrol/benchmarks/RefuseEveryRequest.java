package org.overloadcontrol.benchmarks;

import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.LimiterContext;
import org.overloadcontrol.limiter.LimiterProvider;
import org.overloadcontrol.limiter.Permit;

/**
 * An admission algorithm that refuses every request ({@code admission.controller:
 * refuse-every-request}): the filter's whole refusal path, measured end to end by {@link
 * EndToEndOverhead} beside the bare 429 of concurrency-limits' filter. Under clients that send
 * again at once, a server that refuses most requests spends its cores on refusals, so what one
 * costs decides what is left for the requests it admits.
 */
public final class RefuseEveryRequest implements LimiterProvider {

  /** The name that chooses it. */
  public static final String NAME = "refuse-every-request";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Limiter create(LimiterContext context) {
    return new Limiter() {
      @Override
      public Permit acquire(long nowNanos, int stripe) {
        return null;
      }

      @Override
      public RejectionReason rejectionReason() {
        return RejectionReason.ADMISSION_LIMIT;
      }
    };
  }
}
