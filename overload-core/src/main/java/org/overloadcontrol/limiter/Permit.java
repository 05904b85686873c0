package org.overloadcontrol.limiter;

/**
 * One admitted request's hold on its {@link Limiter}, as concurrency-limits' {@code
 * Limiter.Listener}: the engine calls exactly one of its methods, once, when the request's
 * outcome is settled, however many times the adapter reports it. A limiter may hand out one
 * permit per request or share one among them: the calls carry all a built-in algorithm needs.
 */
public interface Permit {

  /** The response time {@link #onSuccess} gets for a request the engine did not time. */
  long NOT_MEASURED = -1L;

  /**
   * The application ran the request (it completed or threw).
   *
   * @param responseNanos arrival to completion, less deliberate delays (bandwidth shaping); or
   *     {@link #NOT_MEASURED} (see {@link Limiter#needsEveryResponseTime()})
   */
  void onSuccess(long responseNanos);

  /**
   * The request was admitted but never ran: refused later (no room to wait), expired waiting
   * for an execution permit, or abandoned by its client. A sign of overload.
   */
  void onDropped();

  /** The request left without a measurement that says anything about load (redirected). */
  void onIgnore();
}
