package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRequest;
import java.util.Optional;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * Static access for servlets: {@code Overload.context(request)}, {@code Overload.quality(request)}
 * and, for code without the request, {@code Overload.quality(servletContext, endpoint)}.
 */
public final class Overload {

  private Overload() {}

  /**
   * The overload context of a request that passed the filter; empty when the filter did not
   * see it (not mapped, or disabled).
   */
  public static Optional<OverloadContext> context(ServletRequest request) {
    Object value = request.getAttribute(OverloadContext.ATTRIBUTE);
    return value instanceof OverloadContext c ? Optional.of(c) : Optional.empty();
  }

  /**
   * The quality at which to serve {@code request}, in [0, 1], fixed when it was admitted; 1 when
   * the filter did not see it or its endpoint is not degradable.
   */
  public static double quality(ServletRequest request) {
    return context(request).map(OverloadContext::quality).orElse(1.0);
  }

  /**
   * The current quality of {@code endpoint}, for code that has no request at hand (a service
   * class, a cache refresher); 1 when no filter runs in {@code context} or the endpoint is not
   * degradable. It may change from one call to the next; code serving a request should use
   * {@link #quality(ServletRequest)}, which stays fixed for the request.
   */
  public static double quality(ServletContext context, String endpoint) {
    Object runtime = context.getAttribute(OverloadRuntime.ATTRIBUTE);
    return runtime instanceof OverloadRuntime r ? r.quality(endpoint) : 1.0;
  }

  /**
   * Marks {@code request} as the one that completes its session (an order confirmed): when it
   * completes, its session leaves the admitted-session table and counts as completed, making
   * room for a new one (session-aware admission, {@code sessions.*}). Does nothing when the
   * filter did not see the request or sessions are off.
   */
  public static void completeSession(ServletRequest request) {
    Exchange.completeSession(request.getAttribute(OverloadContext.ATTRIBUTE));
  }
}
