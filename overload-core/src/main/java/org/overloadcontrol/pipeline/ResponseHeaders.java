package org.overloadcontrol.pipeline;

import java.util.function.BiConsumer;
import org.overloadcontrol.engine.Answer;

/**
 * The headers overload control puts on a controlled request's response, decided here once for
 * every adapter (the servlet filter, the Jetty handler, the Jakarta REST feature), each of which
 * only hands over its own way of adding a header. Written three times, the copies drifted: one
 * adapter sent a refused request the cookies meant for a request that runs.
 *
 * <ul>
 *   <li>A request that runs ({@link #ofRun}) carries the exchange's {@code Set-Cookie} values: a
 *       session admitted now, a used queue token cleared.
 *   <li>An answer or a refusal ({@link #ofAnswer}) is the whole response, written on an empty
 *       one: {@code Cache-Control}, {@code Retry-After} when it has one, and its own
 *       {@code Set-Cookie} values only. The exchange's are not among them: a new session whose
 *       first request is refused never started (the session gate drops it), so its cookie would
 *       name no session.
 * </ul>
 *
 * <p>The status, {@code Content-Type} and {@code Content-Length} are left to the adapter, as each
 * container has calls of its own for them.
 */
public final class ResponseHeaders {

  /** The header of each cookie. */
  public static final String SET_COOKIE = "Set-Cookie";

  private ResponseHeaders() {}

  /**
   * Adds the headers of a request that runs, before the application writes its response.
   *
   * @param header the container's call that adds one header (name, value)
   */
  public static void ofRun(Exchange exchange, BiConsumer<String, String> header) {
    for (String cookie : exchange.setCookies()) {
      header.accept(SET_COOKIE, cookie);
    }
  }

  /**
   * Adds the headers of {@code answer} (a refusal, a virtual-queue page, a bandwidth refusal) to
   * a response that holds nothing else: reset it first, or start a new one.
   *
   * @param header the container's call that adds one header (name, value)
   */
  public static void ofAnswer(Answer answer, BiConsumer<String, String> header) {
    header.accept("Cache-Control", Answer.CACHE_CONTROL);
    if (answer.retryAfterSeconds() > 0) {
      header.accept("Retry-After", Long.toString(answer.retryAfterSeconds()));
    }
    for (String cookie : answer.setCookies()) {
      header.accept(SET_COOKIE, cookie);
    }
  }
}
