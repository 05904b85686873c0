package org.overloadcontrol.cdi;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Skips a {@link SkipWhenDegraded} method while the request's quality is below its bound. */
@SkipWhenDegraded
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class SkipWhenDegradedInterceptor {

  private final CurrentRequest current;

  @Inject
  SkipWhenDegradedInterceptor(CurrentRequest current) {
    this.current = current;
  }

  @AroundInvoke
  Object skipWhenDegraded(InvocationContext invocation) throws Exception {
    Method method = invocation.getMethod();
    SkipWhenDegraded bound = method.getAnnotation(SkipWhenDegraded.class);
    if (bound == null) {
      bound = method.getDeclaringClass().getAnnotation(SkipWhenDegraded.class);
    }
    if (bound == null || current.quality() >= bound.minQuality()) {
      return invocation.proceed();
    }
    return empty(method.getReturnType());
  }

  static Object empty(Class<?> type) {
    if (type == Optional.class) {
      return Optional.empty();
    }
    if (type == List.class || type == Collection.class || type == Iterable.class) {
      return List.of();
    }
    if (type == Set.class) {
      return Set.of();
    }
    if (type == Map.class) {
      return Map.of();
    }
    if (type.isArray()) {
      return Array.newInstance(type.getComponentType(), 0);
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return '\0';
    }
    if (type.isPrimitive() && type != void.class) {
      // Zero of the primitive type: what a new array of it holds.
      return Array.get(Array.newInstance(type, 1), 0);
    }
    return null;
  }
}
