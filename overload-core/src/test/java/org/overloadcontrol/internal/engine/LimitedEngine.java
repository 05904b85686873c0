package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * An engine on a fake clock and scheduler with one endpoint {@code e} under a concurrency limit
 * whose ceiling the test sets (so the limit starts there), its rounds kept in {@link #rounds}:
 * what the tests of a request's permit under a small limit share.
 */
final class LimitedEngine {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  final FakeTicker ticker = new FakeTicker();
  final FakeScheduler scheduler = new FakeScheduler(ticker);
  final List<LimitRound> rounds = new ArrayList<>();
  final OverloadEngine engine;

  LimitedEngine(String target, String maxLimit) {
    engine =
        OverloadEngine.builder(
                OverloadConfig.of(
                    Map.of(
                        "endpoints.e.target",
                        target,
                        "admission.controller",
                        "concurrency",
                        "admission.maxLimit",
                        maxLimit,
                        "queue.permits",
                        "100")))
            .ticker(ticker)
            .scheduler(scheduler)
            .admissionListener(
                new AdmissionListener() {
                  @Override
                  public void onLimitRound(LimitRound round) {
                    rounds.add(round);
                  }
                })
            .build();
  }

  ConcurrencyGroup group() {
    return engine.endpoint("e").concurrencyGroup();
  }

  RequestTag arrive() {
    return engine.tag(engine.routes().route("e", NONE), ticker.read());
  }

  /** A request the limit admits at once, running. */
  RequestTag admitAndRun() {
    RequestTag tag = arrive();
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    engine.running(tag);
    return tag;
  }

  /** A request that waits for a permit; {@code onResumed} runs when one is handed to it. */
  RequestTag queue(Runnable onResumed) {
    RequestTag waiter = arrive();
    assertThat(engine.arrive(waiter)).isEqualTo(Decision.WAIT);
    assertThat(
            engine.enqueue(
                waiter,
                new Waiter.Listener() {
                  @Override
                  public void resumed(Waiter w) {
                    onResumed.run();
                  }

                  @Override
                  public void expired(Waiter w) {}
                }))
        .isTrue();
    return waiter;
  }

  /** Closes the group's window now. */
  void closeWindow() {
    group().tick(ticker.read());
  }
}
