package org.overloadcontrol.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The 90th-percentile response-time target of a servlet's endpoint: the admission controller
 * tunes the endpoint's admission rate to hold its p90 near this value (Welsh &amp; Culler 2003,
 * §3.2). An endpoint without a target is measured but not controlled.
 *
 * <pre>&#64;ResponseTimeTarget("500ms")</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ResponseTimeTarget {

  /** A duration such as {@code 500ms}, {@code 1.5s} or {@code PT2S}. */
  String value();
}
