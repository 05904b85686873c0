package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.engine.Answer;

/** What every adapter writes for an answer and a refusal, on a response that records it. */
class StepResponsesTest {

  /** A response that records each call, in order, as one line. */
  static final class Recorded implements ContainerResponse<RuntimeException> {
    final List<String> calls = new ArrayList<>();
    boolean committed;

    void header(String name, String value) {
      calls.add(name + ": " + value);
    }

    @Override
    public boolean write(
        int status, List<Map.Entry<String, String>> headers, String contentType, byte[] body) {
      if (committed) {
        return false;
      }
      calls.add("reset");
      calls.add("status " + status);
      headers.forEach(h -> header(h.getKey(), h.getValue()));
      calls.add(contentType + " " + new String(body, StandardCharsets.UTF_8));
      return true;
    }
  }

  @Test
  void anAnswerIsTheWholeResponseWithItsOwnCookiesOnly() {
    Answer answer =
        new Answer(
            503,
            7,
            List.of("a=1; Path=/", "b=2; Path=/"),
            Answer.PROBLEM_JSON,
            "{}".getBytes(StandardCharsets.UTF_8));
    Recorded response = new Recorded();
    // What a request that would have run carried: dropped by the reset before the answer.
    response.header(StepResponses.SET_COOKIE, "oc_session=s; Path=/");

    assertThat(StepResponses.answer(answer, response)).isTrue();

    assertThat(response.calls)
        .containsExactly(
            "Set-Cookie: oc_session=s; Path=/",
            "reset",
            "status 503",
            "Cache-Control: no-store",
            "Retry-After: 7",
            "Set-Cookie: a=1; Path=/",
            "Set-Cookie: b=2; Path=/",
            "application/problem+json {}");
  }

  @Test
  void anAnswerWithoutARetryTimeHasNoRetryAfter() {
    Recorded response = new Recorded();
    StepResponses.answer(new Answer(403, 0, Answer.HTML, new byte[0]), response);
    assertThat(response.calls)
        .containsExactly("reset", "status 403", "Cache-Control: no-store", Answer.HTML + " ");
  }

  @Test
  void nothingIsWrittenOnACommittedResponse() {
    Recorded response = new Recorded();
    response.committed = true;
    assertThat(StepResponses.answer(new Answer(403, 0, Answer.HTML, new byte[0]), response))
        .isFalse();
    assertThat(response.calls).isEmpty();
  }

  @Test
  void aRefusalIs503WithItsRetryTimeRoundedUpAndAProblemForAnApiClient() {
    Recorded response = new Recorded();
    Rejection rejection =
        new Rejection(
            "search", "interactive", RejectionReason.QUEUE_FULL, Duration.ofMillis(2_001));

    StepResponses.reject(rejection, "application/json", "/search", response);

    assertThat(response.calls.subList(0, 4))
        .containsExactly("reset", "status 503", "Cache-Control: no-store", "Retry-After: 3");
    assertThat(response.calls).hasSize(5);
    assertThat(response.calls.get(4))
        .startsWith("application/problem+json {\"type\":\"about:blank\"")
        .contains(
            "\"instance\":\"/search\"", "\"endpoint\":\"search\"", "\"reason\":\"queue-full\"")
        .endsWith("\"retryAfterSeconds\":3}");
  }

  @Test
  void aRefusalConfiguredAs429SaysSoInItsStatusAndItsProblem() {
    Recorded response = new Recorded();
    Rejection rejection =
        new Rejection(
            "search",
            "interactive",
            RejectionReason.EXPIRED,
            Duration.ofSeconds(1),
            Rejection.TOO_MANY_REQUESTS);

    StepResponses.reject(rejection, "application/json", "/search", response);

    assertThat(response.calls.subList(0, 4))
        .containsExactly("reset", "status 429", "Cache-Control: no-store", "Retry-After: 1");
    assertThat(response.calls.get(4))
        .contains("\"title\":\"Too Many Requests\",\"status\":429", "\"reason\":\"expired\"");
  }

  @Test
  void aRejectionsStatusIs503Or429() {
    assertThatThrownBy(() -> new Rejection("e", "c", RejectionReason.EXPIRED, Duration.ZERO, 500))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("503 or 429");
  }

  @Test
  void aBrowserIsRefusedWithAPage() {
    Recorded response = new Recorded();
    StepResponses.reject(
        new Rejection("e", "c", RejectionReason.ADMISSION_RATE, Duration.ZERO),
        "text/html,*/*",
        "/e",
        response);
    assertThat(response.calls).contains("Retry-After: 1");
    assertThat(response.calls.get(response.calls.size() - 1)).startsWith(Answer.HTML + " <");
  }
}
