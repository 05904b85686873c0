package org.overloadcontrol.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.classify.TestRequest;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.queue.Waiter;

/**
 * The engine's waiting room while the machine's cores are saturated, on the fake clock: waiters
 * refused at their deadline narrow it, since each took cores from the requests being served.
 */
class SaturatedCoresRoomTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);

  /** Target 1 s, one permit, the machine's load as given. */
  private OverloadEngine engine(double machineLoad) {
    Map<String, String> m = new HashMap<>();
    m.put("endpoints.browse.target", "1s");
    m.put("admission.maxLimit", "1");
    m.put("admission.initialLimit", "1");
    return OverloadEngine.builder(OverloadConfig.of(m))
        .ticker(ticker)
        .scheduler(scheduler)
        .machineCpuLoad(() -> machineLoad)
        .build();
  }

  private RequestTag send(OverloadEngine engine) {
    RequestTag tag =
        engine.tag(engine.route("browse", TestRequest.get("/browse", "127.0.0.1")), ticker.read());
    if (engine.arrive(tag) == Decision.WAIT) {
      assertThat(
              engine.enqueue(
                  tag,
                  new Waiter.Listener() {
                    @Override
                    public void resumed(Waiter w) {}

                    @Override
                    public void expired(Waiter w) {
                      engine.complete(tag, Outcome.EXPIRED, 0);
                    }
                  }))
          .isTrue();
    } else if (tag.decision() == Decision.REJECT) {
      engine.complete(tag, Outcome.REJECTED, 0);
    }
    return tag;
  }

  /**
   * Sixty requests one at a time, each executing in a tenth of the target: a waiter may wait
   * 0.7 s, in which the one permit frees 7 times; twice that, 14, may wait. Then a request holds
   * the permit, and as many as may wait do, until they are all refused at their deadline.
   * Returns how many waited.
   */
  private int fillTheRoomAndLetItExpire(OverloadEngine engine) {
    List<RequestTag> waiting = new ArrayList<>();
    RequestTag holder = send(engine);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    for (RequestTag t = send(engine); t.decision() == Decision.WAIT; t = send(engine)) {
      waiting.add(t);
      assertThat(waiting).hasSizeLessThan(100);
    }
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    engine.complete(holder, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
    return waiting.size();
  }

  private void executeQuickly(OverloadEngine engine) {
    for (int i = 0; i < 60; i++) {
      RequestTag tag = send(engine);
      assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
      ticker.advance(Duration.ofMillis(100));
      engine.complete(tag, Outcome.COMPLETED, 0);
      scheduler.runDue();
    }
  }

  @Test
  void expiriesNarrowTheRoomOnlyWhileTheCoresAreSaturated() {
    OverloadEngine idle = engine(0.3);
    executeQuickly(idle);
    assertThat(fillTheRoomAndLetItExpire(idle)).isEqualTo(14);
    assertThat(fillTheRoomAndLetItExpire(idle)).isEqualTo(14);

    OverloadEngine busy = engine(1.0);
    executeQuickly(busy);
    assertThat(fillTheRoomAndLetItExpire(busy)).isEqualTo(14);
    // Fourteen expiries at 0.9 each: 2 × 0.9^14 = 0.46 of the 7 permits that free in time.
    assertThat(fillTheRoomAndLetItExpire(busy)).isEqualTo(4);
    assertThat(fillTheRoomAndLetItExpire(busy)).isLessThan(4);
  }
}
