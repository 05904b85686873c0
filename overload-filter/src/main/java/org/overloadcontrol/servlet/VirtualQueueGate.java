package org.overloadcontrol.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.virtualqueue.QueueAnswer;
import org.overloadcontrol.virtualqueue.QueueVerdict;
import org.overloadcontrol.virtualqueue.QueueVisit;
import org.overloadcontrol.virtualqueue.TokenCookie;
import org.overloadcontrol.virtualqueue.UrlEncodedForm;
import org.overloadcontrol.virtualqueue.VirtualQueue;
import org.overloadcontrol.virtualqueue.VirtualQueueFrontEnd;
import org.overloadcontrol.virtualqueue.VirtualQueueSettings;

/**
 * The virtual queue (WebQ) in front of a servlet application: reads an
 * {@link HttpServletRequest} into a {@link QueueVisit}, asks the engine's
 * {@link VirtualQueueFrontEnd}, and writes its {@link QueueAnswer} (the Jetty handler writes the
 * same answers). {@link #admit} returns true when the request may go on; otherwise the response
 * is written. What users see, and why, is described on {@link VirtualQueueFrontEnd}.
 *
 * <p>A browser's url-encoded form POST told to wait is kept: the gate reads its body (at most
 * {@code repostMaxBytes}) so that the waiting page can re-post it.
 *
 * <p>Requests that pass are marked with {@link #TYPE_ATTRIBUTE}; call {@link #complete} once when
 * their response completes to feed the passive capacity estimate.
 */
final class VirtualQueueGate {

  /** Request attribute holding the virtual-queue type of a request that passed the gate. */
  public static final String TYPE_ATTRIBUTE = VirtualQueueGate.class.getName() + ".type";

  private final VirtualQueueFrontEnd frontEnd;
  private final ClientAddressResolver clients;

  /**
   * @param queue the queue, or null when {@code settings} are disabled
   */
  public VirtualQueueGate(VirtualQueueSettings settings, VirtualQueue queue,
      ClientAddressResolver clients, Ticker ticker) {
    this(new VirtualQueueFrontEnd(settings, queue, ticker), clients);
  }

  /** A gate over an engine-side front end. */
  public VirtualQueueGate(VirtualQueueFrontEnd frontEnd, ClientAddressResolver clients) {
    this.frontEnd = java.util.Objects.requireNonNull(frontEnd, "frontEnd");
    this.clients = java.util.Objects.requireNonNull(clients, "clients");
  }

  /**
   * Builds the gate from the filter's configuration ({@code virtualQueue.} section): keys from
   * the key file or environment variable, capacity configured or estimated.
   *
   * @param clients the filter's resolver of client addresses behind its trusted proxies
   * @param wallClock read once, to anchor token times to Unix seconds
   * @param slowWork where a capacity estimate runs (the filter's scheduler thread)
   * @throws org.overloadcontrol.config.OverloadConfigException on a bad setting or key
   */
  public static VirtualQueueGate create(OverloadConfig config, ClientAddressResolver clients,
      Ticker ticker, Clock wallClock, Executor slowWork) {
    return create(config, clients, ticker, wallClock, slowWork, path -> null);
  }

  /**
   * {@link #create(OverloadConfig, ClientAddressResolver, Ticker, Clock, Executor)} in a web
   * application whose resources a {@code virtualQueue.keyFile} under {@code /WEB-INF/} may name.
   *
   * @param webAppResources {@code ServletContext::getResourceAsStream}
   */
  public static VirtualQueueGate create(OverloadConfig config, ClientAddressResolver clients,
      Ticker ticker, Clock wallClock, Executor slowWork,
      java.util.function.Function<String, InputStream> webAppResources) {
    return new VirtualQueueGate(
        VirtualQueueFrontEnd.create(config, ticker, wallClock, slowWork, webAppResources), clients);
  }

  /** The container-free front end, for the request's {@code Exchange}. */
  VirtualQueueFrontEnd frontEnd() {
    return frontEnd;
  }

  /** Whether the queue is switched on. */
  public boolean enabled() {
    return frontEnd.enabled();
  }

  /** The queue, for metrics; null when disabled. */
  public VirtualQueue queue() {
    return frontEnd.queue();
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
    if (!frontEnd.enabled()) {
      return Verdict.PASS;
    }
    ServletRequestAttributes attributes = new ServletRequestAttributes(request, clients);
    String path = attributes.path();
    if (!frontEnd.protects(path)) {
      return Verdict.PASS;
    }
    QueueVisit visit = new QueueVisit(attributes.clientAddress(), path, request.getRequestURI(),
        request.getQueryString(), request.getMethod(), request.getHeader("Accept"),
        request.getContentType(), request.getContentLengthLong(),
        attributes.cookie(TokenCookie.NAME), request.isSecure());
    QueueVerdict verdict = frontEnd.visit(visit);
    if (verdict instanceof QueueVerdict.Pass pass) {
      if (pass.clearCookie() != null) {
        response.addCookie(cookie(pass.clearCookie()));
      }
      request.setAttribute(TYPE_ATTRIBUTE, pass.type());
      return Verdict.PASS;
    }
    QueueVerdict.Stop stop = (QueueVerdict.Stop) verdict;
    Verdict result = stop.waiting() ? Verdict.WAIT : Verdict.REFUSE;
    if (response.isCommitted()) {
      return result;
    }
    List<Map.Entry<String, String>> fields = frontEnd.keepsForm(visit, stop)
        ? formFields(request) : null;
    write(response, frontEnd.answer(visit, stop, fields));
    return result;
  }

  /**
   * Reports the completion of a request that passed the gate (has {@link #TYPE_ATTRIBUTE});
   * call once, when the response is complete.
   */
  public void complete(HttpServletRequest request, long responseNanos, boolean success) {
    if (request.getAttribute(TYPE_ATTRIBUTE) instanceof String type) {
      frontEnd.complete(type, responseNanos, success);
    }
  }

  /**
   * The fields of the url-encoded form body, or null when it is larger than
   * {@code repostMaxBytes} or malformed (then it is not kept).
   */
  private List<Map.Entry<String, String>> formFields(HttpServletRequest request)
      throws IOException {
    int limit = frontEnd.repostMaxBytes();
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(limit + 1);
    }
    return body.length > limit ? null
        : UrlEncodedForm.parse(body, request.getCharacterEncoding());
  }

  private static Cookie cookie(TokenCookie token) {
    Cookie c = new Cookie(TokenCookie.NAME, token.value());
    c.setPath(token.path());
    c.setHttpOnly(true);
    c.setSecure(token.secure());
    c.setMaxAge(token.maxAgeSeconds());
    c.setAttribute("SameSite", TokenCookie.SAME_SITE);
    return c;
  }

  private static void write(HttpServletResponse response, QueueAnswer answer)
      throws IOException {
    response.reset();
    response.setHeader("Cache-Control", QueueAnswer.CACHE_CONTROL);
    if (answer.cookie() != null) {
      response.addCookie(cookie(answer.cookie()));
    }
    response.setStatus(answer.status());
    if (answer.retryAfterSeconds() > 0) {
      response.setHeader("Retry-After", Long.toString(answer.retryAfterSeconds()));
    }
    response.setContentType(answer.contentType());
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
    response.flushBuffer();
  }
}
