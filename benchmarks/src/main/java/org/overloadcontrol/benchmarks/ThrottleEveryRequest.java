package org.overloadcontrol.benchmarks;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

/**
 * What Netflix concurrency-limits' servlet filter writes on a refusal, for every request: the
 * status (429) and nothing else, no body and no {@code Retry-After}. The peer's limiter call
 * before it costs nanoseconds; its response is what {@link EndToEndOverhead} sets beside ours.
 */
public final class ThrottleEveryRequest implements Filter {

  /** The status concurrency-limits' filter is built with in the experiments. */
  static final int TOO_MANY_REQUESTS = 429;

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) {
    ((HttpServletResponse) response).setStatus(TOO_MANY_REQUESTS);
  }
}
