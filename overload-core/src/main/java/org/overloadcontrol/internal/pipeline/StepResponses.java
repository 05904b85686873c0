package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.internal.engine.Answer;

/**
 * What overload control writes on a controlled request's response, decided here once for every
 * adapter (the servlet filter, the Jetty handler, the Jakarta REST feature), each of which only
 * translates to its container's response ({@link ContainerResponse}). Written three times, the
 * copies drifted: one adapter sent a refused request the cookies meant for a request that runs.
 *
 * <ul>
 *   <li>A request that runs ({@link #ofRun}) carries the exchange's {@code Set-Cookie} values: a
 *       session admitted now, a used queue token cleared.
 *   <li>An answer or a refusal ({@link #answer}, {@link #reject}) is the whole response, written
 *       on an emptied one: its status, {@code Cache-Control}, {@code Retry-After} when it has
 *       one, its own {@code Set-Cookie} values only, and its body. The exchange's are not among
 *       them: a new session whose first request is refused never started (the session gate
 *       drops it), so its cookie would name no session.
 * </ul>
 */
public final class StepResponses {

  /** The header of each cookie. */
  public static final String SET_COOKIE = "Set-Cookie";

  private StepResponses() {}

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
   * Writes the answer of an {@code ANSWER} step (a virtual-queue page, a bandwidth refusal) as
   * the whole response: what was set before is dropped.
   *
   * @return false, with nothing written, when the response was already committed
   * @throws X when the client cannot be written to
   */
  public static <X extends Exception> boolean answer(Step step, ContainerResponse<X> response)
      throws X {
    return answer(step.answer(), response);
  }

  /**
   * Writes the waiting page that keeps the form {@code fields} read after {@link
   * Exchange#formMaxBytes}; null fields (too large, malformed, unreadable) give the step's
   * fallback answer. As {@link #answer(Step, ContainerResponse)}.
   */
  public static <X extends Exception> boolean answerKeeping(
      Exchange exchange, List<Map.Entry<String, String>> fields, ContainerResponse<X> response)
      throws X {
    return answer(exchange.answerKeeping(fields), response);
  }

  /**
   * {@link #answerKeeping} of a url-encoded form body read whole, as a servlet reads one; a null
   * body (larger than {@link Exchange#formMaxBytes}) or a malformed one gives the step's
   * fallback answer.
   */
  public static <X extends Exception> boolean answerKeepingBody(
      Exchange exchange, byte[] body, String charsetName, ContainerResponse<X> response) throws X {
    return answer(exchange.answerKeepingBody(body, charsetName), response);
  }

  /**
   * Writes {@code answer} (a virtual-queue page, a bandwidth refusal, a 503) as the whole
   * response: what was set before is dropped.
   *
   * @return false, with nothing written, when the response was already committed
   * @throws X when the client cannot be written to
   */
  static <X extends Exception> boolean answer(Answer answer, ContainerResponse<X> response)
      throws X {
    List<Map.Entry<String, String>> headers = new ArrayList<>(2 + answer.setCookies().size());
    headers.add(Map.entry("Cache-Control", Answer.CACHE_CONTROL));
    if (answer.retryAfterSeconds() > 0) {
      headers.add(Map.entry("Retry-After", Long.toString(answer.retryAfterSeconds())));
    }
    for (String cookie : answer.setCookies()) {
      headers.add(Map.entry(SET_COOKIE, cookie));
    }
    return response.write(answer.status(), headers, answer.contentType(), answer.body());
  }

  /**
   * Whether a client sending this {@code Accept} header (null when absent) gets the default
   * refusal as an HTML page rather than an RFC 9457 problem: an adapter's own refusal can agree.
   */
  public static boolean wantsHtml(String accept) {
    return Answer.wantsHtml(accept);
  }

  /**
   * Writes the default answer to a refused or expired request: 503, {@code Retry-After}, and an
   * HTML page for a client that accepts {@code text/html}, else an RFC 9457 problem.
   *
   * @param accept the request's {@code Accept} header, or null
   * @param instance the request URI, the problem's {@code instance}
   * @return false, with nothing written, when the response was already committed
   * @throws X when the client cannot be written to
   */
  public static <X extends Exception> boolean reject(
      Rejection rejection, String accept, String instance, ContainerResponse<X> response) throws X {
    return answer(Answer.rejection(rejection, accept, instance), response);
  }
}
