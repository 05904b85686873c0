package org.overloadcontrol.servlet;

import jakarta.servlet.ServletRequest;
import java.util.Optional;
import org.overloadcontrol.OverloadContext;

/**
 * Static access for servlets: {@code Overload.context(request)}.
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
}
