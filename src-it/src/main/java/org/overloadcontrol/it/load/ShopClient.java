package org.overloadcontrol.it.load;

import java.net.URI;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.FormRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Sends the shop's requests for the load generators on one asynchronous Jetty
 * {@link HttpClient}: builds the URL and form of a {@link ShopRequest}, carries the session's
 * JSESSIONID cookie by hand (each emulated user has its own, the client keeps none), applies the
 * attempt's timeout and reports one {@link Outcome} per attempt.
 */
public final class ShopClient implements AutoCloseable {

  /** What the caller hears about one attempt, on a client thread. */
  public interface Callback {
    void ended(Outcome outcome, int status, long latencyNanos);
  }

  /** The state a user carries between requests: its cookie and extra headers. */
  public static final class UserSession {
    final long id;
    final Map<String, String> headers;
    volatile String sessionCookie;

    public UserSession(long id, Map<String, String> headers) {
      this.id = id;
      this.headers = headers;
    }

    /** Forgets the server session (a new visit). */
    public void reset() {
      sessionCookie = null;
    }
  }

  private final HttpClient client;
  private final URI base;

  /**
   * A client for the shop at {@code base} (with a trailing slash) that opens at most
   * {@code maxConnections} connections.
   */
  public ShopClient(URI base, int maxConnections) throws Exception {
    if (!base.toString().endsWith("/")) {
      throw new IllegalArgumentException("base must end with '/': " + base);
    }
    this.base = base;
    QueuedThreadPool threads = new QueuedThreadPool(8, 2);
    threads.setName("shop-load");
    threads.setDaemon(true);
    client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(maxConnections);
    client.setMaxRequestsQueuedPerDestination(1 << 20);
    client.setFollowRedirects(false);
    client.setConnectTimeout(10_000);
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.start();
  }

  /** Sends one attempt of {@code type} for {@code user}, giving up after {@code timeoutNanos}. */
  public void send(ShopRequest type, UserSession user, SplittableRandom random,
      long timeoutNanos, Callback callback) {
    Request request = client.newRequest(base.resolve(type.relativePath(random)))
        .method(HttpMethod.fromString(type.method()))
        .timeout(Math.max(1, timeoutNanos / 1_000_000), TimeUnit.MILLISECONDS);
    String[] form = type.form(random, user.id);
    if (form.length > 0) {
      Fields fields = new Fields();
      for (int i = 0; i < form.length; i += 2) {
        fields.put(form[i], form[i + 1]);
      }
      request.body(new FormRequestContent(fields));
    }
    String cookie = user.sessionCookie;
    request.headers(h -> {
      user.headers.forEach(h::put);
      if (cookie != null) {
        h.put(HttpHeader.COOKIE, cookie);
      }
    });
    long sent = System.nanoTime();
    request.send(result -> callback.ended(classify(result, user),
        result.getResponse() == null ? 0 : result.getResponse().getStatus(),
        System.nanoTime() - sent));
  }

  private static Outcome classify(Result result, UserSession user) {
    Response response = result.getResponse();
    if (result.isFailed()) {
      Throwable failure = result.getFailure();
      return failure instanceof TimeoutException ? Outcome.TIMED_OUT : Outcome.FAILED;
    }
    for (HttpField f : response.getHeaders().getFields(HttpHeader.SET_COOKIE)) {
      String v = f.getValue();
      if (v.startsWith("JSESSIONID=")) {
        int end = v.indexOf(';');
        user.sessionCookie = end < 0 ? v : v.substring(0, end);
      }
    }
    int status = response.getStatus();
    if (status == 503) {
      return Outcome.REJECTED;
    }
    return status >= 200 && status < 400 ? Outcome.COMPLETED : Outcome.FAILED;
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // Best effort: the client's threads are daemons.
    }
  }
}
