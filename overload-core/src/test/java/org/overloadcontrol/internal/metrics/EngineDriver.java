package org.overloadcontrol.internal.metrics;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * An engine on a fake clock with two endpoints and wait queues, and requests driven by hand:
 * "search" (browsing, target 1 s) and "confirm" (transaction, target 1.5 s), one execution
 * permit in all, a token bucket of depth 2 at 2 requests/s.
 */
final class EngineDriver {

  final FakeTicker ticker = new FakeTicker();
  final FakeScheduler scheduler = new FakeScheduler(ticker);
  final OverloadEngine engine;

  EngineDriver() {
    this(Map.of());
  }

  EngineDriver(Map<String, String> extra) {
    Map<String, String> config =
        new HashMap<>(
            Map.of(
                "classes.search.rank",
                "1",
                "classes.search.utility",
                "36",
                "classes.search.target",
                "1s",
                "classes.confirm.rank",
                "8",
                "classes.confirm.kind",
                "transaction",
                "classes.confirm.target",
                "1500ms",
                "controller.initialRate",
                "2",
                "controller.bucketDepth",
                "2",
                "queue.permits",
                "1",
                "admission.controller",
                "rate"));
    config.putAll(extra);
    engine =
        OverloadEngine.builder(OverloadConfig.of(config))
            .ticker(ticker)
            .scheduler(scheduler)
            .build();
  }

  /** Offers one request of class {@code cls} at endpoint {@code cls}; returns its tag. */
  RequestTag arrive(String cls) {
    RequestTag tag =
        engine.tag(
            engine.endpoint(cls).forClass(engine.config().requestClass(cls).orElseThrow()),
            ticker.read());
    Decision d = engine.arrive(tag);
    if (d == Decision.REJECT) {
      engine.settle(tag, Outcome.REJECTED, 0);
    } else if (d == Decision.WAIT) {
      boolean queued =
          engine.enqueue(
              tag,
              new Waiter.Listener() {
                @Override
                public void resumed(Waiter w) {}

                @Override
                public void expired(Waiter w) {
                  engine.settle(tag, Outcome.EXPIRED, 0);
                }
              });
      if (!queued) {
        engine.settle(tag, Outcome.REJECTED, 0);
      }
    }
    return tag;
  }

  /**
   * The traffic the exposition tests read back: three searches (one admitted and completed
   * after 1.5 s, one waiting, one rejected) and one confirm that failed.
   */
  void traffic() {
    RequestTag a = arrive("search");
    arrive("search"); // waits
    arrive("search"); // rejected
    ticker.advance(Duration.ofMillis(1500));
    engine.settle(a, Outcome.COMPLETED, 10);
    RequestTag c = arrive("confirm");
    engine.settle(c, Outcome.FAILED, 0);
  }

  void advance(Duration d) {
    ticker.advance(d);
    scheduler.runDue();
  }
}
