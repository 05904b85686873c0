package org.overloadcontrol.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.overloadcontrol.capacity.CapacityEstimator;
import org.overloadcontrol.capacity.CapacitySource;
import org.overloadcontrol.capacity.FixedCapacity;
import org.overloadcontrol.capacity.PassiveCapacity;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.engine.Ticker;
import org.overloadcontrol.virtualqueue.EpochClock;
import org.overloadcontrol.virtualqueue.KeyRingLoader;
import org.overloadcontrol.virtualqueue.QueueDecision;
import org.overloadcontrol.virtualqueue.RefusalReason;
import org.overloadcontrol.virtualqueue.TokenUrls;
import org.overloadcontrol.virtualqueue.VirtualQueue;
import org.overloadcontrol.virtualqueue.VirtualQueueSettings;
import org.overloadcontrol.virtualqueue.WaitingPage;

/**
 * The virtual queue (WebQ) in front of a servlet application: translates an
 * {@link HttpServletRequest} into one {@link VirtualQueue#decide} call and writes the answer.
 * {@link #admit} returns true when the request may go on; otherwise the response is written.
 *
 * <p>The token travels in the query parameter {@code oc_token} and in a cookie of the same name
 * (path = the request's path, HttpOnly, SameSite=Lax, Secure on HTTPS, living for the wait plus
 * the grace window). A query token is authoritative: if it fails, the request is refused. A
 * cookie token that fails for any reason but "early" or "queue full" is taken as stale (a
 * finished visit, another page below the same path) and the request joins the queue afresh.
 *
 * <p>Answers to a request told to wait:
 * <ul>
 *   <li>a browser (Accept has text/html) GET or HEAD: 200 and a page that counts down and
 *       retries by itself (meta refresh) with the token in the URL;</li>
 *   <li>a browser form POST ({@code application/x-www-form-urlencoded}, body up to
 *       {@code repostMaxBytes}): 200 and a page holding the fields that re-posts them with the
 *       token when the wait is over: the POST is not lost;</li>
 *   <li>any other browser request with a body (multipart uploads, larger forms, PUT): 503 with
 *       {@code Retry-After} and a page saying the submission was not sent and when to send it
 *       again; the cookie carries the place in line, so the resubmission is admitted;</li>
 *   <li>an API client: 503, {@code Retry-After} and a JSON body with the token and retry URL;
 *       the client repeats the same request (method and body) with the token, "307-style".</li>
 * </ul>
 * Refusals: a token fault (forged, altered, wrong URL, foreign address, expired, replayed) is
 * 403 with a link to join again; an early token is 503 with {@code Retry-After} (and for a
 * browser a page that refreshes when its slot comes); a full queue is 503.
 *
 * <p>Requests that pass are marked with {@link #TYPE_ATTRIBUTE}; call {@link #complete} once when
 * their response completes to feed the passive capacity estimate.
 */
public final class VirtualQueueGate {

  /** Request attribute holding the virtual-queue type of a request that passed the gate. */
  public static final String TYPE_ATTRIBUTE = VirtualQueueGate.class.getName() + ".type";

  private static final int SC_TOO_EARLY_OR_BUSY = HttpServletResponse.SC_SERVICE_UNAVAILABLE;

  private final VirtualQueueSettings settings;
  private final VirtualQueue queue;
  private final ClientAddressResolver clients;
  private final Ticker ticker;

  /**
   * @param queue the queue, or null when {@code settings} are disabled
   */
  public VirtualQueueGate(VirtualQueueSettings settings, VirtualQueue queue,
      ClientAddressResolver clients, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    if (settings.enabled() && queue == null) {
      throw new IllegalArgumentException("an enabled gate needs a queue");
    }
    this.queue = queue;
    this.clients = Objects.requireNonNull(clients, "clients");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Builds the gate from the filter's configuration ({@code virtualQueue.} section): keys from
   * the key file or environment variable, capacity configured or estimated.
   *
   * @param slowWork where a capacity estimate runs (the filter's scheduler thread)
   * @throws org.overloadcontrol.config.OverloadConfigException on a bad setting or key
   */
  public static VirtualQueueGate create(OverloadConfig config, Ticker ticker, Executor slowWork) {
    VirtualQueueSettings settings = VirtualQueueSettings.from(config.section("virtualQueue"));
    ClientAddressResolver clients = new ClientAddressResolver(config.trustedProxies());
    if (!settings.enabled()) {
      return new VirtualQueueGate(settings, null, clients, ticker);
    }
    CapacitySource capacity = settings.capacityAuto()
        ? new PassiveCapacity(settings.epoch().toNanos(), settings.trainingEpochs(), 6,
            CapacityEstimator.defaults(), slowWork, ticker.read())
        : new FixedCapacity(settings.capacity(), settings.hardness());
    VirtualQueue queue = VirtualQueue.of(settings,
        KeyRingLoader.load(settings, System::getenv, new SecureRandom()), capacity,
        EpochClock.anchored(ticker, Clock.systemUTC()));
    return new VirtualQueueGate(settings, queue, clients, ticker);
  }

  /** Whether the queue is switched on. */
  public boolean enabled() {
    return queue != null;
  }

  /** The queue, for metrics; null when disabled. */
  public VirtualQueue queue() {
    return queue;
  }

  /** What the gate did with a request. */
  public enum Verdict {
    /** The request may go on to the application. */
    PASS,
    /** The request was told to wait (a waiting page or JSON with a token): REDIRECTED. */
    WAIT,
    /** The request was refused (bad token, too early, queue full): REJECTED. */
    REFUSE
  }

  /**
   * Decides for {@code request}; when it may not proceed, writes the response.
   *
   * @return true when the request may go on to the application
   */
  public boolean admit(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    return gate(request, response) == Verdict.PASS;
  }

  /**
   * Decides for {@code request}; when it may not proceed, writes the response and says whether
   * it was told to wait or refused.
   */
  public Verdict gate(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (queue == null) {
      return Verdict.PASS;
    }
    ServletRequestAttributes attributes = new ServletRequestAttributes(request, clients);
    String path = attributes.path();
    if (!settings.protects(path)) {
      return Verdict.PASS;
    }
    String address = attributes.clientAddress();
    String rawQuery = request.getQueryString();
    String url = TokenUrls.bound(request.getRequestURI(), rawQuery);
    String type = settings.typeOf(path);
    long now = ticker.read();
    String queryToken = TokenUrls.token(rawQuery);
    String cookieToken = attributes.cookie(TokenUrls.PARAMETER);
    String token = queryToken != null ? queryToken : cookieToken;
    QueueDecision decision = queue.decide(address, url, token, type, now);
    if (queryToken == null && cookieToken != null && decision instanceof QueueDecision.Refuse r
        && r.reason().tokenFault()) {
      // A stale cookie (used, expired, or set for another page under this path): join afresh.
      decision = queue.decide(address, url, null, type, now);
    }
    if (decision instanceof QueueDecision.Pass pass) {
      if (pass.byToken() && cookieToken != null) {
        response.addCookie(cookie(request, "", 0));
      }
      request.setAttribute(TYPE_ATTRIBUTE, type);
      return Verdict.PASS;
    }
    boolean waiting = decision instanceof QueueDecision.Wait;
    if (response.isCommitted()) {
      return waiting ? Verdict.WAIT : Verdict.REFUSE;
    }
    response.reset();
    response.setHeader("Cache-Control", "no-store");
    if (decision instanceof QueueDecision.Wait wait) {
      response.addCookie(cookie(request, wait.token(),
          wait.waitSeconds() + settings.graceSeconds() + 1));
      writeWait(request, response, wait, url);
    } else {
      writeRefusal(request, response, (QueueDecision.Refuse) decision, url, token);
    }
    return waiting ? Verdict.WAIT : Verdict.REFUSE;
  }

  /**
   * Reports the completion of a request that passed the gate (has {@link #TYPE_ATTRIBUTE});
   * call once, when the response is complete.
   */
  public void complete(HttpServletRequest request, long responseNanos, boolean success) {
    Object type = request.getAttribute(TYPE_ATTRIBUTE);
    if (queue != null && type instanceof String t) {
      queue.complete(t, responseNanos, success, ticker.read());
    }
  }

  private void writeWait(HttpServletRequest request, HttpServletResponse response,
      QueueDecision.Wait wait, String url) throws IOException {
    String retryUrl = TokenUrls.withToken(url, wait.token());
    String method = request.getMethod().toUpperCase(Locale.ROOT);
    boolean browser = DefaultRejectionHandler.wantsHtml(request.getHeader("Accept"));
    if (!browser) {
      response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
      response.setHeader("Retry-After", Integer.toString(wait.waitSeconds()));
      write(response, "application/json", WaitingPage.waitingJson(wait, retryUrl));
    } else if (method.equals("GET") || method.equals("HEAD")) {
      response.setStatus(HttpServletResponse.SC_OK);
      write(response, "text/html;charset=UTF-8",
          WaitingPage.waitingHtml(wait.waitSeconds(), wait.position(), retryUrl));
    } else {
      List<Map.Entry<String, String>> fields = method.equals("POST") ? formFields(request)
          : null;
      if (fields != null) {
        response.setStatus(HttpServletResponse.SC_OK);
        write(response, "text/html;charset=UTF-8",
            WaitingPage.repostHtml(wait.waitSeconds(), wait.position(), retryUrl, fields));
      } else {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", Integer.toString(wait.waitSeconds()));
        write(response, "text/html;charset=UTF-8",
            WaitingPage.resubmitHtml(wait.waitSeconds()));
      }
    }
  }

  private void writeRefusal(HttpServletRequest request, HttpServletResponse response,
      QueueDecision.Refuse refuse, String url, String token) throws IOException {
    int status = refuse.reason().tokenFault() ? HttpServletResponse.SC_FORBIDDEN
        : SC_TOO_EARLY_OR_BUSY;
    response.setStatus(status);
    if (!refuse.reason().tokenFault()) {
      response.setHeader("Retry-After", Long.toString(Math.max(1, refuse.retryAfterSeconds())));
    }
    if (DefaultRejectionHandler.wantsHtml(request.getHeader("Accept"))) {
      String retryUrl = token == null ? url : TokenUrls.withToken(url, token);
      write(response, "text/html;charset=UTF-8",
          WaitingPage.refusalHtml(refuse, url, retryUrl));
    } else {
      write(response, "application/problem+json", WaitingPage.refusalJson(refuse, status, url));
    }
  }

  /**
   * The fields of a url-encoded form body, or null when the body is not such a form or is
   * larger than {@code repostMaxBytes} (then it is not kept).
   */
  private List<Map.Entry<String, String>> formFields(HttpServletRequest request)
      throws IOException {
    String contentType = request.getContentType();
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT)
        .startsWith("application/x-www-form-urlencoded")) {
      return null;
    }
    int limit = settings.repostMaxBytes();
    long declared = request.getContentLengthLong();
    if (declared > limit) {
      return null;
    }
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(limit + 1);
    }
    if (body.length > limit) {
      return null;
    }
    Charset charset = charset(request.getCharacterEncoding());
    List<Map.Entry<String, String>> fields = new ArrayList<>();
    String text = new String(body, StandardCharsets.ISO_8859_1);
    for (String pair : text.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        fields.add(new AbstractMap.SimpleImmutableEntry<>(URLDecoder.decode(name, charset),
            URLDecoder.decode(value, charset)));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return fields;
  }

  private static Charset charset(String name) {
    if (name == null) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return StandardCharsets.UTF_8;
    }
  }

  private static Cookie cookie(HttpServletRequest request, String value, int maxAgeSeconds) {
    Cookie c = new Cookie(TokenUrls.PARAMETER, value);
    c.setPath(request.getRequestURI());
    c.setHttpOnly(true);
    c.setSecure(request.isSecure());
    c.setMaxAge(maxAgeSeconds);
    c.setAttribute("SameSite", "Lax");
    return c;
  }

  private static void write(HttpServletResponse response, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    response.setContentType(contentType);
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
    response.flushBuffer();
  }
}
