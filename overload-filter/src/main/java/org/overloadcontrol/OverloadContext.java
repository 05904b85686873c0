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
 */
public interface OverloadContext {

  /** The request attribute under which the context is stored. */
  String ATTRIBUTE = OverloadContext.class.getName();

  /** The endpoint (stage) the request was routed to. */
  String endpoint();

  /** The name of the request's class. */
  String requestClass();

  /** The arrival time on the engine's ticker, in nanoseconds. */
  long arrivalNanos();

  /** Time since arrival. */
  Duration elapsed();

  /** How long the request waited in a queue for an execution permit; zero if it did not. */
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
}
