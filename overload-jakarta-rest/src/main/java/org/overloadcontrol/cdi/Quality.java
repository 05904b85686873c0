package org.overloadcontrol.cdi;

import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Qualifies an injected {@code double} as the current request's quality, in
 * {@code [minQuality, 1]} and fixed for the whole request (Welsh &amp; Culler 2003, §4.5): inject
 * it into a request-scoped bean, {@code @Inject @Quality double quality;}. Outside a request
 * under overload control it is 1.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface Quality {}
