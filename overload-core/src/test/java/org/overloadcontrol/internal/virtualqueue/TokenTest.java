package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.capacity.FixedCapacity;
import org.overloadcontrol.internal.engine.FakeTicker;

class TokenTest {

  private static final String CLIENT = "203.0.113.7";
  private static final String URL = "/shop/checkout?cart=42";
  private static final long EPOCH = 1_767_225_600L;

  private final SecureRandom random = new SecureRandom();
  private final String k1 = KeyRing.newEntry("k1", random);
  private final String k2 = KeyRing.newEntry("k2", random);
  private FakeTicker ticker;
  private EpochClock clock;

  @BeforeEach
  void setUp() {
    ticker = new FakeTicker();
    clock = EpochClock.fixed(ticker, ticker.read(), EPOCH);
  }

  /** A queue of capacity 1 request/s, max wait 60 s, grace 5 s. */
  private VirtualQueue queue(String keys) {
    return new VirtualQueue(
        60, 5, 1000, KeyRing.parse(keys), new FixedCapacity(1, Map.of()), clock);
  }

  /** Fills slot 0, then returns the token of the next arrival (told to wait 1 s). */
  private VirtualQueueDecision.Wait waitingToken(VirtualQueue q) {
    assertThat(q.decide(CLIENT, URL, null, "default", ticker.read()))
        .isEqualTo(new VirtualQueueDecision.Pass(false));
    VirtualQueueDecision d = q.decide(CLIENT, URL, null, "default", ticker.read());
    assertThat(d).isInstanceOf(VirtualQueueDecision.Wait.class);
    return (VirtualQueueDecision.Wait) d;
  }

  private VirtualQueueDecision present(VirtualQueue q, String token) {
    return q.decide(CLIENT, URL, token, "default", ticker.read());
  }

  private static VirtualQueueDecision refused(VirtualQueueRejection reason) {
    return new VirtualQueueDecision.Reject(reason, 0);
  }

  @Test
  void tokenAdmitsOnceItsSlotHasCome() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    assertThat(wait.waitSeconds()).isEqualTo(1);
    assertThat(wait.position()).isEqualTo(2);
    assertThat(wait.token()).matches("[A-Za-z0-9_-]+").hasSizeLessThan(100);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(q.tokenAdmittedCount()).isEqualTo(1);
  }

  @Test
  void earlyTokenIsRefusedWithTheSecondsLeft() {
    VirtualQueue q = queue(k1);
    for (int i = 0; i < 4; i++) {
      q.decide(CLIENT, URL, null, "default", ticker.read());
    }
    VirtualQueueDecision.Wait wait =
        (VirtualQueueDecision.Wait) q.decide(CLIENT, URL, null, "default", ticker.read());
    assertThat(wait.waitSeconds()).isEqualTo(4);
    ticker.advance(Duration.ofMillis(1500));
    assertThat(present(q, wait.token()))
        .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.EARLY, 3));
    assertThat(q.refusalCount(VirtualQueueRejection.EARLY)).isEqualTo(1);
    ticker.advance(Duration.ofMillis(2500));
    assertThat(present(q, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
  }

  @Test
  void tokenWithinTheGraceWindowAdmitsAndAfterItExpires() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait a = waitingToken(q);
    VirtualQueueDecision.Wait b =
        (VirtualQueueDecision.Wait) q.decide(CLIENT, URL, null, "default", ticker.read());
    ticker.advance(Duration.ofSeconds(b.waitSeconds() + 5));
    assertThat(present(q, b.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, a.token())).isEqualTo(refused(VirtualQueueRejection.EXPIRED));
    assertThat(q.refusalCount(VirtualQueueRejection.EXPIRED)).isEqualTo(1);
  }

  @Test
  void forgedTokensAreRefused() {
    VirtualQueue q = queue(k1);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, "not-a-token")).isEqualTo(refused(VirtualQueueRejection.FORGED));
    assertThat(present(q, "%%%")).isEqualTo(refused(VirtualQueueRejection.FORGED));
    assertThat(present(q, "A".repeat(500))).isEqualTo(refused(VirtualQueueRejection.FORGED));
    // Well formed, but signed with a key this site does not hold.
    VirtualQueue other = queue(KeyRing.newEntry("k1", random));
    VirtualQueueDecision.Wait foreign = waitingToken(other);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, foreign.token())).isEqualTo(refused(VirtualQueueRejection.ALTERED));
    VirtualQueue unknownId = queue(KeyRing.newEntry("zz", random));
    VirtualQueueDecision.Wait unknown = waitingToken(unknownId);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, unknown.token())).isEqualTo(refused(VirtualQueueRejection.FORGED));
    assertThat(q.refusalCount(VirtualQueueRejection.FORGED)).isEqualTo(4);
  }

  @Test
  void editingTheWaitOrCheckInTimeIsDetected() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    QueueToken t = QueueToken.decode(wait.token());
    String shorter =
        new QueueToken(
                t.keyId(), t.checkInSecond(), 0, t.nonce(), t.seal(), t.urlTag(), t.addressTag())
            .encode();
    String earlier =
        new QueueToken(
                t.keyId(),
                t.checkInSecond() - 1,
                t.waitSeconds(),
                t.nonce(),
                t.seal(),
                t.urlTag(),
                t.addressTag())
            .encode();
    assertThat(present(q, shorter)).isEqualTo(refused(VirtualQueueRejection.ALTERED));
    assertThat(present(q, earlier)).isEqualTo(refused(VirtualQueueRejection.ALTERED));
    byte[] raw = Base64.getUrlDecoder().decode(wait.token());
    raw[raw.length - 40] ^= 1;
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, Base64.getUrlEncoder().withoutPadding().encodeToString(raw)))
        .isIn(refused(VirtualQueueRejection.ALTERED), refused(VirtualQueueRejection.WRONG_URL));
    assertThat(present(q, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
  }

  @Test
  void tokenForAnotherUrlIsRefused() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(q.decide(CLIENT, "/shop/checkout?cart=43", wait.token(), "default", ticker.read()))
        .isEqualTo(refused(VirtualQueueRejection.WRONG_URL));
    assertThat(q.refusalCount(VirtualQueueRejection.WRONG_URL)).isEqualTo(1);
  }

  @Test
  void tokenFromAnotherAddressIsRefused() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(q.decide("198.51.100.1", URL, wait.token(), "default", ticker.read()))
        .isEqualTo(refused(VirtualQueueRejection.FOREIGN_ADDRESS));
    assertThat(q.refusalCount(VirtualQueueRejection.FOREIGN_ADDRESS)).isEqualTo(1);
    assertThat(present(q, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
  }

  @Test
  void aTokenAdmitsOnlyOnceWithinItsWindow() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(q, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(present(q, wait.token())).isEqualTo(refused(VirtualQueueRejection.REPLAYED));
    ticker.advance(Duration.ofSeconds(4));
    assertThat(present(q, wait.token())).isEqualTo(refused(VirtualQueueRejection.REPLAYED));
    ticker.advance(Duration.ofSeconds(2));
    assertThat(present(q, wait.token())).isEqualTo(refused(VirtualQueueRejection.EXPIRED));
    assertThat(q.refusalCount(VirtualQueueRejection.REPLAYED)).isEqualTo(2);
  }

  @Test
  void twoUsersBehindOneAddressGetDistinctTokens() {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait a = waitingToken(q);
    // Slot 1 is now full (capacity 1); the next arrival waits 2 s.
    VirtualQueueDecision.Wait b =
        (VirtualQueueDecision.Wait) q.decide(CLIENT, URL, null, "default", ticker.read());
    VirtualQueue q2 = queue(k1);
    assertThat(a.token()).isNotEqualTo(b.token());
    ticker.advance(Duration.ofSeconds(2));
    assertThat(present(q, a.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(present(q, b.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(present(q2, a.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
  }

  @Test
  void racingRequestsWithOneTokenAdmitExactlyOne() throws Exception {
    VirtualQueue q = queue(k1);
    VirtualQueueDecision.Wait wait = waitingToken(q);
    ticker.advance(Duration.ofSeconds(1));
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger passed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int j = 0; j < 50; j++) {
                  if (present(q, wait.token()) instanceof VirtualQueueDecision.Pass) {
                    passed.incrementAndGet();
                  }
                }
              });
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(passed.get()).isEqualTo(1);
    assertThat(q.refusalCount(VirtualQueueRejection.REPLAYED)).isEqualTo(199);
  }

  @Test
  void keyRotationOldKeysVerifyTheCurrentOneSigns() {
    VirtualQueue before = queue(k1);
    VirtualQueueDecision.Wait old = waitingToken(before);
    VirtualQueue rotated = queue(k2 + "\n" + k1);
    VirtualQueueDecision.Wait fresh = waitingToken(rotated);
    assertThat(QueueToken.decode(fresh.token()).keyId()).isEqualTo("k2");
    ticker.advance(Duration.ofSeconds(1));
    assertThat(present(rotated, old.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(present(rotated, fresh.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    VirtualQueue retired = queue(k2);
    assertThat(present(retired, old.token())).isEqualTo(refused(VirtualQueueRejection.FORGED));
  }

  @Test
  void fullQueueIsRefused() {
    VirtualQueue q =
        new VirtualQueue(2, 5, 1000, KeyRing.parse(k1), new FixedCapacity(1, Map.of()), clock);
    for (int i = 0; i < 3; i++) {
      q.decide(CLIENT, URL, null, "default", ticker.read());
    }
    assertThat(q.decide(CLIENT, URL, null, "default", ticker.read()))
        .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.QUEUE_FULL, 2));
    assertThat(q.refusalCount(VirtualQueueRejection.QUEUE_FULL)).isEqualTo(1);
    assertThat(q.waitCount()).isEqualTo(2);
    assertThat(q.passCount()).isEqualTo(1);
  }

  @Test
  void hardnessOfTheTypeIsReserved() {
    VirtualQueue q =
        new VirtualQueue(
            60, 5, 1000, KeyRing.parse(k1), new FixedCapacity(10, Map.of("book", 4.0)), clock);
    for (int i = 0; i < 3; i++) {
      assertThat(q.decide(CLIENT, URL, null, "book", ticker.read()))
          .isInstanceOf(VirtualQueueDecision.Pass.class);
    }
    assertThat(q.decide(CLIENT, URL, null, "browse", ticker.read()))
        .isInstanceOf(VirtualQueueDecision.Wait.class);
  }

  @Test
  void theCookiePathHoldsNoPathParameter() {
    assertThat(TokenUrls.cookiePath("/app/checkout;x=1")).isEqualTo("/app/checkout");
    assertThat(TokenUrls.cookiePath("/app;v=2/checkout;jsessionid=abc")).isEqualTo("/app/checkout");
    assertThat(TokenUrls.cookiePath("/app/checkout")).isEqualTo("/app/checkout");
    assertThat(TokenUrls.cookiePath(";x")).isEqualTo("/");
  }
}
