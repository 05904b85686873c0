package org.overloadcontrol.cdi;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.servlet.Overload;

/**
 * The overload context of the request being served, read from the container's
 * {@code HttpServletRequest} bean (a built-in bean in Jakarta EE and Weld Servlet). Looked up
 * lazily, so that an application without servlets (Weld SE) still deploys.
 */
@Dependent
class CurrentRequest {

  private final Instance<HttpServletRequest> request;

  @Inject
  CurrentRequest(Instance<HttpServletRequest> request) {
    this.request = request;
  }

  Optional<OverloadContext> context() {
    if (!request.isResolvable()) {
      return Optional.empty();
    }
    try {
      return Overload.context(request.get());
    } catch (jakarta.enterprise.context.ContextNotActiveException e) {
      return Optional.empty();
    }
  }

  double quality() {
    return context().map(OverloadContext::quality).orElse(1.0);
  }
}
