package org.overloadcontrol.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.engine.Answer;

class ResponseHeadersTest {

  private static List<Map.Entry<String, String>> ofAnswer(Answer answer) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    ResponseHeaders.ofAnswer(answer, (name, value) -> headers.add(Map.entry(name, value)));
    return headers;
  }

  @Test
  void anAnswerCarriesNoStoreItsRetryAfterAndItsOwnCookiesInThatOrder() {
    Answer answer =
        new Answer(
            503,
            7,
            List.of("a=1; Path=/", "b=2; Path=/"),
            Answer.PROBLEM_JSON,
            "{}".getBytes(StandardCharsets.UTF_8));
    assertThat(ofAnswer(answer))
        .containsExactly(
            Map.entry("Cache-Control", "no-store"),
            Map.entry("Retry-After", "7"),
            Map.entry("Set-Cookie", "a=1; Path=/"),
            Map.entry("Set-Cookie", "b=2; Path=/"));
  }

  @Test
  void anAnswerWithoutARetryTimeHasNoRetryAfter() {
    Answer forbidden = new Answer(403, 0, Answer.HTML, new byte[0]);
    assertThat(ofAnswer(forbidden)).containsExactly(Map.entry("Cache-Control", "no-store"));
  }
}
