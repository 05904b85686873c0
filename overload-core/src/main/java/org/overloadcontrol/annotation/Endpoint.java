package org.overloadcontrol.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the endpoint of a servlet's requests instead of its servlet name, so that
 * several servlets can share one controller or a servlet keeps its endpoint when renamed.
 * Path rules in configuration ({@code endpoints.<e>.paths}) take precedence.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Endpoint {

  /** The endpoint's name. */
  String value();
}
