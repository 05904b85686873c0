package org.overloadcontrol.it.support;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An application's own filter in front of everything, as a tracing or metrics filter is: when a
 * request is still asynchronous after the chain returns, it adds its own {@link AsyncListener}
 * to learn when the response completes. {@link #COMPLETIONS} counts that listener's
 * {@code onComplete} calls per request {@code ?id=}; a request ends once, so each count must be
 * one. The class comes from the test class path, so the test reads the deployed filter's counts.
 */
public class ListeningFilter implements Filter {

  /** {@code onComplete} calls of the application's listener, per request id. */
  public static final Map<String, AtomicInteger> COMPLETIONS = new ConcurrentHashMap<>();

  /** The ids of requests the overload filter held (delayed or waiting) before they ran. */
  public static final Set<String> HELD = ConcurrentHashMap.newKeySet();

  private static final String HELD_ATTRIBUTE = "org.overloadcontrol.servlet.SuspendedRequest";

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String id = request.getParameter("id");
    try {
      chain.doFilter(request, response);
    } finally {
      if (id != null && request.getAttribute(HELD_ATTRIBUTE) != null) {
        HELD.add(id);
      }
      if (id != null && request.isAsyncStarted()) {
        AtomicInteger completions = COMPLETIONS.computeIfAbsent(id, k -> new AtomicInteger());
        request
            .getAsyncContext()
            .addListener(
                new AsyncListener() {
                  @Override
                  public void onComplete(AsyncEvent event) {
                    completions.incrementAndGet();
                  }

                  @Override
                  public void onTimeout(AsyncEvent event) {}

                  @Override
                  public void onError(AsyncEvent event) {}

                  @Override
                  public void onStartAsync(AsyncEvent event) {
                    // A new asynchronous cycle: keep listening, as such filters do.
                    event.getAsyncContext().addListener(this);
                  }
                });
      }
    }
  }
}
