package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.bandwidth.BandwidthSettings;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.bandwidth.ClientGroup;
import org.overloadcontrol.internal.bandwidth.GroupRule;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/** {@link Exchange#settle}: one outcome, and each feature told once, on the fake clock. */
class ExchangeTest {

  private final FakeTicker ticker = new FakeTicker();
  private final OverloadEngine engine =
      new OverloadEngine(OverloadConfig.of(Map.of()), ticker, AdmissionListener.NONE);
  private final BandwidthShaper shaper =
      new BandwidthShaper(
          BandwidthSettings.builder(100_000)
              .alpha(1)
              .managerPeriod(Duration.ofMillis(500))
              .cacheExpiry(Duration.ofSeconds(60))
              .group(
                  "all", 100, new GroupRule(AddressMatcher.parse(List.of("0.0.0.0/0")), null, null))
              .build(),
          ticker);

  private Exchange admitted() {
    RequestTag tag = engine.tag(engine.routes().route("e", null), ticker.read());
    engine.arrive(tag);
    Exchange exchange = new Exchange(engine, tag, null);
    ShapingDecision d = shaper.decide(group(), 0);
    exchange.shaped(d.ticket());
    return exchange;
  }

  private ClientGroup group() {
    return shaper.settings().groups().get(0);
  }

  private EndpointClass route() {
    return engine.endpoint("e").forClass(engine.config().defaultClass());
  }

  @Test
  void onlyTheFirstReportCountsAndTellsTheBandwidthTicketItsBytes() {
    Exchange exchange = admitted();
    ticker.advance(Duration.ofMillis(100));
    assertThat(exchange.settle(Outcome.COMPLETED, 10_000)).isTrue();
    assertThat(exchange.settle(Outcome.FAILED, 99_999)).isFalse();
    assertThat(route().outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    assertThat(route().outcomeCount(Outcome.FAILED)).isZero();
    ticker.advance(Duration.ofMillis(400));
    shaper.managerRound();
    // 10 KB in the half second of the round, once: the second report's bytes never counted.
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond()).isEqualTo(20_000.0);
  }

  @Test
  void aRequestThatDidNotRunCancelsItsTicket() {
    Exchange exchange = admitted();
    assertThat(exchange.settle(Outcome.REJECTED, 5_000)).isTrue();
    ticker.advance(Duration.ofMillis(500));
    shaper.managerRound();
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond()).isZero();
    assertThat(route().outcomeCount(Outcome.REJECTED)).isEqualTo(1);
  }

  /**
   * A refusal's status: 503, or 429 where the container closes the connection after a 503 and
   * the configuration leaves it to the container ({@code rejectionStatus: auto}, the default);
   * a status set in the configuration wins either way.
   */
  @Test
  void aRefusalCarriesTheStatusTheConfigurationAndTheContainerGive() {
    assertThat(refusedStatus(Map.of(), false)).isEqualTo(503);
    assertThat(refusedStatus(Map.of(), true)).isEqualTo(429);
    assertThat(refusedStatus(Map.of("rejectionStatus", "503"), true)).isEqualTo(503);
    assertThat(refusedStatus(Map.of("rejectionStatus", "429"), false)).isEqualTo(429);
    assertThat(refusedStatus(Map.of(), true, RejectionReason.SHUTDOWN))
        .as("a stopping server is unavailable")
        .isEqualTo(503);
  }

  private int refusedStatus(Map<String, String> keys, boolean closesConnectionAfter503) {
    return refusedStatus(keys, closesConnectionAfter503, RejectionReason.QUEUE_FULL);
  }

  private int refusedStatus(
      Map<String, String> keys, boolean closesConnectionAfter503, RejectionReason reason) {
    OverloadEngine e =
        OverloadEngine.builder(OverloadConfig.of(keys))
            .ticker(ticker)
            .closesConnectionAfter503(closesConnectionAfter503)
            .build();
    RequestTag tag = e.tag(e.routes().route("e", null), ticker.read());
    e.arrive(tag);
    Exchange exchange = new Exchange(e, tag, null);
    e.reject(tag, reason);
    Rejection rejection = exchange.rejection();
    assertThat(rejection.reason()).isEqualTo(reason);
    return rejection.status();
  }
}
