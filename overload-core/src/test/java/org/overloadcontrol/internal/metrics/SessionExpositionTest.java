package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.session.SessionVisit;

/** Session-aware admission's counts in the recorded metrics, the status JSON and the docs. */
class SessionExpositionTest {

  @Test
  void sessionCountsAreExposedLiveAndDocumented() throws Exception {
    FakeTicker ticker = new FakeTicker();
    OverloadEngine engine =
        OverloadEngine.builder(
                OverloadConfig.of(
                    Map.of(
                        "endpoints.shop.target",
                        "1s",
                        "sessions.enabled",
                        "true",
                        "sessions.maxSessions",
                        "1",
                        "sessions.completionPaths",
                        "/confirm")))
            .ticker(ticker)
            .scheduler(new FakeScheduler(ticker))
            .build();
    RecordedMetrics registry = new RecordedMetrics();
    Observability observability =
        Observability.builder(engine)
            .recorder(registry)
            .stateListener(StateChange.Listener.NONE)
            .build();
    try {
      RequestTag first =
          engine.tag(
              engine.routes().route("shop", TestRequest.get("/", "127.0.0.1")), ticker.read());
      String cookie =
          engine.admitSession(first, new SessionVisit(null, null, null, "/", false)).setCookie();
      engine.arrive(first);
      engine.settle(first, Outcome.COMPLETED, 0);
      RequestTag other =
          engine.tag(
              engine.routes().route("shop", TestRequest.get("/", "127.0.0.1")), ticker.read());
      assertThat(
              engine.admitSession(other, new SessionVisit(null, null, null, "/", false)).rejected())
          .isTrue(); // the table holds one session
      engine.settle(other, Outcome.REJECTED, 0);

      assertThat(registry.value("overload.sessions.admitted_now")).isEqualTo(1);
      assertThat(registry.value("overload.sessions.new_refused")).isEqualTo(1);
      assertThat(registry.get("overload.sessions.new_refused").count()).isTrue();
      JsonNode s = new ObjectMapper().readTree(observability.statusJson()).get("sessions");
      assertThat(s.get("admittedNow").asInt()).isEqualTo(1);
      assertThat(s.get("newRefused").asLong()).isEqualTo(1);

      RequestTag confirm =
          engine.tag(
              engine.routes().route("shop", TestRequest.get("/confirm", "127.0.0.1")),
              ticker.read());
      engine.admitSession(confirm, new SessionVisit(cookie, null, null, "/confirm", false));
      engine.arrive(confirm);
      engine.settle(confirm, Outcome.COMPLETED, 0);
      s = new ObjectMapper().readTree(observability.statusJson()).get("sessions");
      assertThat(s.get("completed").asLong()).isEqualTo(1);
      assertThat(s.get("admittedNow").asInt()).isZero();
      assertThat(s.get("midSessionRefusals").asLong()).isZero();

      String doc = Files.readString(Path.of("..", "docs", "observability.md"));
      s.fieldNames().forEachRemaining(f -> assertThat(doc).contains("`" + f + "`"));
      for (String family : registry.families().keySet()) {
        if (family.startsWith("overload_sessions")) {
          assertThat(doc).as(family).contains("`" + family + "`");
        }
      }
      assertThat(registry.families().get("overload_sessions_completed_total"))
          .containsExactly(Map.of("__value__", "1.0"));
    } finally {
      observability.close();
    }
  }
}
