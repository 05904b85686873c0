package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Says once that requests reach the filter already controlled by another overload-control layer
 * in front of it: the Jetty {@code OverloadHandler} wrapping the web application (or a second
 * {@code OverloadFilter} earlier in the chain). The filter then passes every request through,
 * since controlling a request twice would count it twice and could refuse it twice; so the web
 * application's annotations and this filter's configuration are not applied, and its status page
 * shows no endpoints. Without this notice that looked like a filter silently doing nothing.
 */
final class TakeoverNotice {

  private final ServletContext context;
  private final String filterName;
  private final AtomicBoolean said = new AtomicBoolean();

  TakeoverNotice(ServletContext context, String filterName) {
    this.context = context;
    this.filterName = filterName;
  }

  /** A request arrived already carrying another layer's overload context. */
  void alreadyControlled() {
    if (!said.get() && said.compareAndSet(false, true)) {
      ContainerLog.warn(context, message(filterName));
    }
  }

  static String message(String filterName) {
    return "overload-control: filter '"
        + filterName
        + "' passes every request through:"
        + " requests reach it already controlled by an overload-control layer in front of it"
        + " (the Jetty OverloadHandler wrapping this web application, or another OverloadFilter"
        + " earlier in the chain), which has taken over. This filter's configuration and the"
        + " servlets' annotations are not applied and its status page shows no endpoints;"
        + " configure the endpoints on the handler, or remove one of the two.";
  }
}
