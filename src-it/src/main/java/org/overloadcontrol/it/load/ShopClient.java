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
import org.overloadcontrol.it.serverlog.ServerRequestLog;

/**
 * Sends the shop's requests for the load generators on one asynchronous Jetty
 * {@link HttpClient}: builds the URL and form of a {@link ShopRequest}, carries the session's
 * JSESSIONID cookie by hand (each emulated user has its own, the client keeps none), applies the
 * attempt's timeout and reports one {@link Outcome} per attempt. Each request tells the server
 * when its user will give up ({@link ServerRequestLog#GIVES_UP_HEADER}), so the server-side log
 * can count the responses completed for users who had already left.
 *
 * <p>A refusal is a 503 or a 429, whoever sends it (our filter, its virtual queue's waiting
 * room, which answers a client that does not ask for HTML with 503 and {@code Retry-After}, or a
 * peer), and any redirect: the shop itself never redirects, so a 3xx can only be a guard sending
 * the user elsewhere.
 */
public final class ShopClient implements ShopTransport, AutoCloseable {

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

  @Override
  public void send(ShopRequest type, UserSession user, SplittableRandom random,
      long timeoutNanos, Callback callback) {
    long sent = System.nanoTime();
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
      h.put(ServerRequestLog.GIVES_UP_HEADER, Long.toString(sent + timeoutNanos));
    });
    request.send(result -> {
      Response response = result.getResponse();
      callback.ended(classify(result, user), response == null ? 0 : response.getStatus(),
          System.nanoTime() - sent, response == null ? -1
              : retryAfterNanos(response.getHeaders().get(HttpHeader.RETRY_AFTER)));
    });
  }

  /** A {@code Retry-After} in its delay-seconds form, in nanoseconds; -1 if absent or a date. */
  static long retryAfterNanos(String header) {
    if (header == null) {
      return -1;
    }
    try {
      long seconds = Long.parseLong(header.trim());
      return seconds < 0 ? -1 : seconds * 1_000_000_000L;
    } catch (NumberFormatException e) {
      return -1;
    }
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
    return classify(response.getStatus());
  }

  /** What a status means to a user: served, refused (503, 429, any redirect) or failed. */
  static Outcome classify(int status) {
    if (status == 503 || status == 429 || status >= 300 && status < 400) {
      return Outcome.REJECTED;
    }
    return status >= 200 && status < 300 ? Outcome.COMPLETED : Outcome.FAILED;
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
