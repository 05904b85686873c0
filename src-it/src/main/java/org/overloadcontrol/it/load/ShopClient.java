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
 * {@link HttpClient}: builds the URL and form of a {@link ShopRequest}, carries the user's
 * cookies by hand, as a browser would (the container's JSESSIONID and any a guard sets; each
 * emulated user has its own, the client keeps none), applies the
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

    /** The cookies the server set (its session's, and any guard's), by name. */
    final Map<String, String> cookies = new java.util.concurrent.ConcurrentHashMap<>();

    public UserSession(long id, Map<String, String> headers) {
      this.id = id;
      this.headers = headers;
    }

    /** Forgets the server session (a new visit). */
    public void reset() {
      cookies.clear();
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
  public void send(
      ShopRequest type,
      UserSession user,
      SplittableRandom random,
      long timeoutNanos,
      Callback callback) {
    long sent = System.nanoTime();
    Request request =
        client
            .newRequest(base.resolve(type.relativePath(random)))
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
    String cookie =
        user.cookies.isEmpty()
            ? null
            : user.cookies.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining("; "));
    request.headers(
        h -> {
          user.headers.forEach(h::put);
          if (cookie != null) {
            h.put(HttpHeader.COOKIE, cookie);
          }
          h.put(ServerRequestLog.GIVES_UP_HEADER, Long.toString(sent + timeoutNanos));
        });
    request.send(
        result -> {
          Response response = result.getResponse();
          callback.ended(
              classify(result, user),
              response == null ? 0 : response.getStatus(),
              System.nanoTime() - sent,
              response == null
                  ? -1
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
      // Every cookie, as a browser keeps them: the container's session, and a guard's own
      // (session-aware admission's signed cookie); Max-Age=0 or an empty value deletes one.
      String v = f.getValue();
      int end = v.indexOf(';');
      String pair = end < 0 ? v : v.substring(0, end);
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String name = pair.substring(0, eq).trim();
      String value = pair.substring(eq + 1).trim();
      if (value.isEmpty() || v.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
        user.cookies.remove(name);
      } else {
        user.cookies.put(name, value);
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
