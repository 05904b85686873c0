package org.overloadcontrol;

import java.time.Duration;
import java.util.Optional;

/**
 * What overload control knows about the current request, for the application: which endpoint
 * and class it was given, when it arrived, and how its endpoint is doing against its target.
 *
 * <p>Servlets find it with {@code org.overloadcontrol.servlet.Overload.context(request)}, or as
 * the request attribute {@link #ATTRIBUTE}; Jetty handlers as the same request attribute. The
 * values describe the request's own endpoint and class.
 *
 * <p>Degradable endpoints: a servlet reads {@link #quality()} and does less work when it is
 * below 1 (see {@code @Degradable}).
 */
public interface OverloadContext {

  /** The request attribute under which the context is stored. */
  String ATTRIBUTE = OverloadContext.class.getName();

  /** The endpoint the request was routed to. */
  String endpoint();

  /** The name of the request's class. */
  String requestClass();

  /** The arrival time on the engine's ticker, in nanoseconds. */
  long arrivalNanos();

  /** Time since arrival. */
  Duration elapsed();

  /**
   * How long the request waited for an execution permit, and then for a container thread to
   * run it, until it started; zero if it did not wait.
   */
  Duration waited();

  /**
   * The smoothed 90th-percentile response time of this endpoint and class, as the admission
   * controller last computed it; {@link Duration#ZERO} before the first measurement.
   */
  Duration p90Estimate();

  /** The p90 target, or empty when the endpoint is measured but not controlled. */
  Optional<Duration> target();

  /**
   * The admission rate (requests per second) the controller currently allows for this
   * endpoint and class; {@link Double#POSITIVE_INFINITY} when admission is not controlled.
   */
  double admissionRate();

  /**
   * The quality at which to serve this request, in [0, 1]: 1 is full fidelity, less means do
   * proportionally less work (Welsh &amp; Culler 2003, §3.4). Captured when the request was
   * admitted, or resumed from a wait queue, and fixed from then on, so one request never
   * mixes two qualities. Always 1 at an endpoint that is not degradable.
   */
  double quality();

  /** {@link #quality()} as {@link QualityLevel#FULL}, {@code REDUCED} or {@code MINIMAL}. */
  QualityLevel qualityLevel();
}
