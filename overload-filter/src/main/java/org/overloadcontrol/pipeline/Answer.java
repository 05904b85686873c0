package org.overloadcontrol.pipeline;

import java.util.List;
import java.util.Objects;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RefusalBody;

/**
 * A complete response the engine decided on, for the adapter to write as it is: a virtual-queue
 * waiting page or refusal (WebQ §V-A), or a bandwidth refusal (Li &amp; Jamin §V: 429 or 403).
 * The adapter resets the response, writes {@link #status()}, {@code Cache-Control: no-store}, a
 * {@code Retry-After} header when {@link #retryAfterSeconds()} is positive, each
 * {@code Set-Cookie} header, the content type and the body, then calls
 * {@link Exchange#finish} with {@link #outcome()}.
 *
 * @param setCookies whole {@code Set-Cookie} header values, rendered by the engine
 */
public record Answer(int status, long retryAfterSeconds, List<String> setCookies,
    String contentType, byte[] body, Outcome outcome) {

  /** The {@code Cache-Control} value of every answer: it is personal and brief. */
  public static final String CACHE_CONTROL = RefusalBody.CACHE_CONTROL;

  public Answer {
    setCookies = List.copyOf(setCookies);
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** A refusal body as an answer settled as {@code outcome}. */
  static Answer of(RefusalBody refusal, Outcome outcome) {
    return new Answer(refusal.status(), refusal.retryAfterSeconds(), List.of(),
        refusal.contentType(), refusal.body(), outcome);
  }
}
