package org.overloadcontrol.cdi;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks optional work of a degradable endpoint (recommendations, a related-items box, an
 * expensive enrichment): while the current request's quality is below {@link #minQuality()}, the
 * method is not called and its caller gets an empty answer instead (an empty {@code Optional},
 * collection, map or array, {@code null} for any other reference type, zero or false for a
 * primitive). This is the degradation of Welsh &amp; Culler 2003, §4.5, done by skipping work
 * rather than by scaling it; the endpoint itself is marked {@code @Degradable} as usual, and its
 * quality controller sets the quality this compares with.
 *
 * <p>An interceptor binding: on a CDI bean's method, or on the bean class for all its methods.
 */
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface SkipWhenDegraded {

  /** The quality at or above which the method runs. */
  @Nonbinding
  double minQuality() default 1.0;
}
