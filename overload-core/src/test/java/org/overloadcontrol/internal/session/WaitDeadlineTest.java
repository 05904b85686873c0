package org.overloadcontrol.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A waiting request's deadline on the fake clock: its target less its class's median execution
 * time, except for an admitted session's request, which keeps its own longer bound.
 */
class WaitDeadlineTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);

  /** Target 1 s, a limit of one permit; sessions on or off. */
  private OverloadEngine engine(boolean sessions) {
    return engine(sessions, Double.NaN);
  }

  /** As above, on a machine whose CPU load always reads {@code machineLoad}. */
  private OverloadEngine engine(boolean sessions, double machineLoad) {
    Map<String, String> m = new HashMap<>();
    m.put("endpoints.browse.target", "1s");
    m.put("admission.maxLimit", "1");
    m.put("admission.initialLimit", "1");
    m.put("sessions.enabled", Boolean.toString(sessions));
    return OverloadEngine.builder(OverloadConfig.of(m))
        .ticker(ticker)
        .scheduler(scheduler)
        .sessionKeys(CookieKeys.random(new SecureRandom()))
        .machineCpuLoad(() -> machineLoad)
        .build();
  }

  /** A request through sessions (when on) and admission; queued when it must wait. */
  private RequestTag send(OverloadEngine engine, String cookie, String[] setCookie) {
    RequestTag tag =
        engine.tag(
            engine.routes().route("browse", TestRequest.get("/browse", "127.0.0.1")),
            ticker.read());
    if (engine.sessions() != null) {
      SessionGate.Answer answer =
          engine.admitSession(tag, new SessionVisit(cookie, null, null, "/browse", false));
      assertThat(answer.rejected()).isFalse();
      if (answer.setCookie() != null) {
        setCookie[0] = answer.setCookie();
      }
    }
    if (engine.arrive(tag) == Decision.WAIT) {
      assertThat(
              engine.enqueue(
                  tag,
                  new Waiter.Listener() {
                    @Override
                    public void resumed(Waiter w) {}

                    @Override
                    public void expired(Waiter w) {
                      engine.settle(tag, Outcome.EXPIRED, 0);
                    }
                  }))
          .isTrue();
    }
    return tag;
  }

  /** Sixty requests, one at a time, each executing in 0.7 of the target. */
  private String executeSlowly(OverloadEngine engine) {
    String[] cookie = {null};
    for (int i = 0; i < 60; i++) {
      RequestTag tag = send(engine, cookie[0], cookie);
      assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
      ticker.advance(Duration.ofMillis(700));
      engine.settle(tag, Outcome.COMPLETED, 0);
      scheduler.runDue();
    }
    return cookie[0];
  }

  @Test
  void aRequestThatCouldNoLongerFinishWithinItsTargetIsRefusedAtItsDeadline() {
    OverloadEngine engine = engine(false);
    executeSlowly(engine);
    RequestTag holder = send(engine, null, new String[1]);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    RequestTag waiter = send(engine, null, new String[1]);
    // Half the target was the bound; 0.3 of it is all a 0.7 execution leaves.
    ticker.advance(Duration.ofMillis(250));
    scheduler.runDue();
    assertThat(waiter.waiter().waiting()).isTrue();
    ticker.advance(Duration.ofMillis(100));
    scheduler.runDue();
    assertThat(waiter.waiter().waiting()).isFalse();
    assertThat(waiter.reason()).isEqualTo(RejectionReason.EXPIRED);
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void aRequestPastWhatCanBeServedInTimeIsRefusedAtOnce() {
    OverloadEngine engine = engine(false);
    executeSlowly(engine);
    RequestTag holder = send(engine, null, new String[1]);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    // One permit frees every 0.7 s and a request may wait 0.3 s: twice what frees in time is
    // one waiter. The next is refused before it is suspended, not at its deadline.
    RequestTag first = send(engine, null, new String[1]);
    assertThat(first.decision()).isEqualTo(Decision.WAIT);
    RequestTag second = send(engine, null, new String[1]);
    assertThat(second.decision()).isEqualTo(Decision.REJECT);
    assertThat(second.reason()).isEqualTo(RejectionReason.QUEUE_FULL);
    engine.settle(second, Outcome.REJECTED, 0);
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
    // The waiter that left no longer counts: a request may wait again.
    RequestTag again = send(engine, null, new String[1]);
    assertThat(again.decision()).isEqualTo(Decision.ADMIT);
    assertThat(send(engine, null, new String[1]).decision()).isEqualTo(Decision.WAIT);
  }

  /**
   * Sixty requests one at a time, each executing in a tenth of the target: a waiter may wait
   * 0.7 s, in which the one permit frees 7 times; twice that, 14, may wait.
   */
  private void executeQuickly(OverloadEngine engine) {
    for (int i = 0; i < 60; i++) {
      RequestTag tag = send(engine, null, new String[1]);
      assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
      ticker.advance(Duration.ofMillis(100));
      engine.settle(tag, Outcome.COMPLETED, 0);
      scheduler.runDue();
    }
  }

  /**
   * A request holds the permit, as many as may wait do, and all are refused at their deadline.
   * Returns how many waited.
   */
  private int fillTheRoomAndLetItExpire(OverloadEngine engine) {
    RequestTag holder = send(engine, null, new String[1]);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    int waited = 0;
    RequestTag next = send(engine, null, new String[1]);
    while (next.decision() == Decision.WAIT) {
      waited++;
      assertThat(waited).isLessThan(100);
      next = send(engine, null, new String[1]);
    }
    assertThat(next.reason()).isEqualTo(RejectionReason.QUEUE_FULL);
    engine.settle(next, Outcome.REJECTED, 0);
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
    return waited;
  }

  @Test
  void whileTheCoresAreSaturatedExpiriesNarrowTheRoom() {
    OverloadEngine idle = engine(false, 0.3);
    executeQuickly(idle);
    assertThat(fillTheRoomAndLetItExpire(idle)).isEqualTo(14);
    assertThat(fillTheRoomAndLetItExpire(idle)).isEqualTo(14);

    // Each waiter refused at its deadline took cores from the requests being served.
    OverloadEngine busy = engine(false, 1.0);
    executeQuickly(busy);
    assertThat(fillTheRoomAndLetItExpire(busy)).isEqualTo(14);
    // Fourteen expiries at 0.9 each: 2 × 0.9^14 = 0.46 of the 7 permits that free in time.
    assertThat(fillTheRoomAndLetItExpire(busy)).isEqualTo(4);
    assertThat(fillTheRoomAndLetItExpire(busy)).isLessThan(4);
  }

  @Test
  void anAdmittedSessionsRequestWaitsWhateverTheCount() {
    OverloadEngine engine = engine(true);
    String cookie = executeSlowly(engine);
    RequestTag holder = send(engine, cookie, new String[1]);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    // Refusing it would lose its session's work so far: past the one waiter a new request
    // may have here, the session's requests still wait.
    for (int i = 0; i < 3; i++) {
      assertThat(send(engine, cookie, new String[1]).decision()).isEqualTo(Decision.WAIT);
    }
    assertThat(engine.queues().waitingCount()).isEqualTo(3);
  }

  @Test
  void anAdmittedSessionsRequestKeepsItsLongerBound() {
    OverloadEngine engine = engine(true);
    String cookie = executeSlowly(engine);
    assertThat(cookie).isNotNull();
    RequestTag holder = send(engine, cookie, new String[1]);
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    RequestTag waiter = send(engine, cookie, new String[1]);
    // sessions.maxWait, 0.8 of the target: a refusal mid-session loses the session's work.
    ticker.advance(Duration.ofMillis(750));
    scheduler.runDue();
    assertThat(waiter.waiter().waiting()).isTrue();
    ticker.advance(Duration.ofMillis(100));
    scheduler.runDue();
    assertThat(waiter.waiter().waiting()).isFalse();
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void theDoorClosesOnceAnAdmittedSessionsRequestHasWaitedWhatItsPageAffords() {
    // Executions of 0.7 of the 1 s target leave about 0.3 s of wait (a new session's request
    // expires between 0.25 and 0.35 s, above): past it the admitted session's page will be
    // late, so new sessions wait outside, though its own bound is 0.8 s (half of it, 0.4 s,
    // was the sign before).
    OverloadEngine engine = engine(true);
    String cookie = executeSlowly(engine);
    RequestTag holder = send(engine, cookie, new String[1]);
    RequestTag waiter = send(engine, cookie, new String[1]);
    assertThat(waiter.decision()).isEqualTo(Decision.WAIT);
    ticker.advance(Duration.ofMillis(250));
    assertThat(engine.queues().sessionOverdue()).isFalse();
    ticker.advance(Duration.ofMillis(110));
    assertThat(engine.queues().sessionOverdue()).isTrue();
    scheduler.runDue();
    assertThat(waiter.waiter().waiting()).as("it keeps its own bound").isTrue();
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(waiter.waiter().waiting()).isFalse();
    assertThat(engine.queues().sessionOverdue()).isFalse();
    engine.settle(waiter, Outcome.COMPLETED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
    assertThat(engine.sessions().midSessionRefusalCount()).isZero();
  }
}
