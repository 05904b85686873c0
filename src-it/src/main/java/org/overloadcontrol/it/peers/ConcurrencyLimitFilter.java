package org.overloadcontrol.it.peers;

import com.netflix.concurrency.limits.Limiter;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Netflix concurrency-limits' servlet filter ({@code ConcurrencyLimitServletFilter} of
 * {@code concurrency-limits-servlet} 0.5.4), ported to Jakarta Servlet for the experiments: the
 * published filter is for {@code javax.servlet} only. Its behaviour is kept (acquire a token from
 * the {@link Limiter} for each request; without one, answer {@code throttleStatus}, 429 by
 * default, with "Concurrency limit exceeded"; with one, run the chain and report success, or
 * "ignore" when the chain throws), with one fix: a request that goes asynchronous releases its
 * token when its response completes ({@link AsyncListener#onComplete}), not when
 * {@code doFilter} returns. The published filter releases it at once, so an asynchronous
 * request's service time would not be measured and its concurrency not counted. A request that
 * times out or fails asynchronously reports "ignore", like a synchronous one that throws.
 *
 * <p>Written for this project from the published filter's behaviour; no code copied.
 */
public final class ConcurrencyLimitFilter implements Filter {

  /** The published filter's default refusal status. */
  public static final int TOO_MANY_REQUESTS = 429;

  private final Limiter<HttpServletRequest> limiter;
  private final int throttleStatus;

  public ConcurrencyLimitFilter(Limiter<HttpServletRequest> limiter) {
    this(limiter, TOO_MANY_REQUESTS);
  }

  public ConcurrencyLimitFilter(Limiter<HttpServletRequest> limiter, int throttleStatus) {
    this.limiter = limiter;
    this.throttleStatus = throttleStatus;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    Optional<Limiter.Listener> acquired = limiter.acquire(http);
    if (acquired.isEmpty()) {
      HttpServletResponse r = (HttpServletResponse) response;
      r.setStatus(throttleStatus);
      r.getWriter().print("Concurrency limit exceeded");
      return;
    }
    Token token = new Token(acquired.get());
    // The wrapper registers the release at startAsync itself: registered after doFilter
    // returns, it could miss a response another thread completed in between.
    AsyncAware wrapped = new AsyncAware(http, token);
    try {
      chain.doFilter(wrapped, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      token.ignore();
      throw e;
    }
    if (!wrapped.asyncStarted) {
      token.success();
    }
  }

  /** The limiter's listener, told exactly once. */
  static final class Token implements AsyncListener {
    private final Limiter.Listener listener;
    private final AtomicBoolean done = new AtomicBoolean();

    Token(Limiter.Listener listener) {
      this.listener = listener;
    }

    void success() {
      if (done.compareAndSet(false, true)) {
        listener.onSuccess();
      }
    }

    void ignore() {
      if (done.compareAndSet(false, true)) {
        listener.onIgnore();
      }
    }

    @Override
    public void onComplete(AsyncEvent event) {
      success();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      ignore();
    }

    @Override
    public void onError(AsyncEvent event) {
      ignore();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      // A new asynchronous cycle forgets its listeners unless they register again.
      event.getAsyncContext().addListener(this);
    }
  }

  /** Adds the token as a listener of any asynchronous cycle the application starts. */
  private static final class AsyncAware extends HttpServletRequestWrapper {
    private final Token token;
    volatile boolean asyncStarted;

    AsyncAware(HttpServletRequest request, Token token) {
      super(request);
      this.token = token;
    }

    @Override
    public AsyncContext startAsync() {
      return listened(super.startAsync());
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
      return listened(super.startAsync(request, response));
    }

    private AsyncContext listened(AsyncContext context) {
      if (!asyncStarted) {
        asyncStarted = true;
        context.addListener(token);
      }
      return context;
    }
  }
}
