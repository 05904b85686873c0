package org.overloadcontrol.it.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.UserBehaviour.RefusalResponse;

/**
 * Users who leave at their first refusal, or retry once after {@code Retry-After}, and the
 * purchases they make, against a scripted shop that answers at once: the counts depend only on
 * the script and the seeded arrivals, never on timing.
 */
class ImpatientUsersTest {

  private static final long SECOND = 1_000_000_000L;

  /** Every visitor buys: home, details, cart, login, shipping, payment, confirm. */
  private static SessionModel buyers() {
    double[][] buy = new double[8][8];
    buy[0][3] = 1;
    buy[3][4] = 1;
    buy[4][5] = 1;
    buy[5][6] = 1;
    buy[6][7] = 1;
    return SessionModel.of(buy);
  }

  /** An answer of the script: status and Retry-After seconds (-1 for none). */
  private record Answer(int status, long retryAfterSeconds) {
    static final Answer OK = new Answer(200, -1);
  }

  /** Answers from {@code script(session id, request)}; records every request per session. */
  private static final class ScriptedShop implements ShopTransport {
    final Map<Long, List<ShopRequest>> sent = new ConcurrentHashMap<>();
    final BiFunction<Long, List<ShopRequest>, Answer> script;

    ScriptedShop(BiFunction<Long, List<ShopRequest>, Answer> script) {
      this.script = script;
    }

    @Override
    public void send(
        ShopRequest type,
        ShopClient.UserSession user,
        SplittableRandom random,
        long timeoutNanos,
        Callback callback) {
      List<ShopRequest> mine = sent.computeIfAbsent(user.id, id -> new ArrayList<>());
      List<ShopRequest> soFar;
      synchronized (mine) {
        mine.add(type);
        soFar = List.copyOf(mine);
      }
      Answer a = script.apply(user.id, soFar);
      callback.ended(
          ShopClient.classify(a.status()),
          a.status(),
          1_000,
          a.retryAfterSeconds() < 0 ? -1 : a.retryAfterSeconds() * SECOND);
    }

    long sessionsWhere(java.util.function.Predicate<Long> p) {
      return sent.keySet().stream().filter(p).count();
    }
  }

  private static final UserBehaviour PATIENT =
      new UserBehaviour(Duration.ofSeconds(10), Duration.ZERO, 0, 0, Duration.ZERO, Duration.ZERO);

  private static RunResult run(ScriptedShop shop, UserBehaviour users) throws Exception {
    return new SessionLoadGenerator(shop, buyers(), users, () -> EngineGauge.Reading.NONE, Map.of())
        .run(
            StepSchedule.constant(100),
            Duration.ofMillis(300),
            Duration.ofSeconds(20),
            Duration.ofSeconds(1),
            11L);
  }

  private static long count(List<ShopRequest> requests, ShopRequest type) {
    return requests.stream().filter(t -> t == type).count();
  }

  @Test
  void usersWhoLeaveAtTheFirstRefusalBuyOnlyWhenNothingOfTheirVisitWasRefused() throws Exception {
    // Odd sessions are refused at payment, mid-purchase.
    ScriptedShop shop =
        new ScriptedShop(
            (id, soFar) ->
                id % 2 == 1 && soFar.get(soFar.size() - 1) == ShopRequest.PAYMENT
                    ? new Answer(503, 0)
                    : Answer.OK);

    RunResult r = run(shop, PATIENT);

    long odd = shop.sessionsWhere(id -> id % 2 == 1);
    long even = shop.sessionsWhere(id -> id % 2 == 0);
    assertThat(odd).isPositive();
    assertThat(even).isPositive();
    assertThat(r.sessionsStarted()).isEqualTo(odd + even);
    assertThat(r.purchases()).isEqualTo(even);
    assertThat(r.purchasesWithoutRefusal()).isEqualTo(even);
    assertThat(r.sessionsRefusedMidSession()).isEqualTo(odd);
    assertThat(r.sessionsRefusedAtEntry()).isZero();
    assertThat(r.sessionsAbandoned()).isEqualTo(odd);
    // Every walk reaches confirm: the refused ones were buyers all the same.
    assertThat(r.buyers()).isEqualTo(odd + even);
    shop.sent.forEach(
        (id, requests) -> {
          if (id % 2 == 1) {
            // Nothing after the refusal: the user left.
            assertThat(requests).as("session " + id).endsWith(ShopRequest.PAYMENT);
            assertThat(count(requests, ShopRequest.PAYMENT)).isEqualTo(1);
          } else {
            assertThat(requests).as("session " + id).endsWith(ShopRequest.CONFIRM);
          }
        });
    assertThat(r.series().stream().mapToLong(RunResult.SeriesPoint::purchases).sum())
        .isEqualTo(even);
  }

  @Test
  void usersWhoRetryOnceSendTheRefusedRequestOnceMoreAndLeaveIfRefusedAgain() throws Exception {
    // Odd sessions: the first payment is refused, the second served. Even sessions: the home
    // page is refused every time.
    ScriptedShop shop =
        new ScriptedShop(
            (id, soFar) -> {
              ShopRequest last = soFar.get(soFar.size() - 1);
              if (id % 2 == 1 && last == ShopRequest.PAYMENT && count(soFar, last) == 1) {
                return new Answer(503, 0);
              }
              return id % 2 == 0 && last == ShopRequest.HOME ? new Answer(429, -1) : Answer.OK;
            });
    UserBehaviour users = PATIENT.withRefusalResponse(RefusalResponse.RETRY_ONCE);

    // Users wait RELOAD_DELAY (1 s) after the 429 without Retry-After: the drain covers it.
    RunResult r = run(shop, users);

    long odd = shop.sessionsWhere(id -> id % 2 == 1);
    long even = shop.sessionsWhere(id -> id % 2 == 0);
    assertThat(odd).isPositive();
    assertThat(even).isPositive();
    assertThat(r.purchases()).isEqualTo(odd);
    // Bought, but after a refusal: a user who leaves at the first refusal would not have.
    assertThat(r.purchasesWithoutRefusal()).isZero();
    assertThat(r.sessionsRefusedMidSession()).isEqualTo(odd);
    assertThat(r.sessionsRefusedAtEntry()).isEqualTo(even);
    // A retried confirm or payment is one buyer, as is a walk that left at its home page.
    assertThat(r.buyers()).isEqualTo(odd + even);
    assertThat(r.buyersLost()).containsExactly(Map.entry("refused at entry", even));
    shop.sent.forEach(
        (id, requests) -> {
          if (id % 2 == 1) {
            assertThat(count(requests, ShopRequest.PAYMENT)).as("session " + id).isEqualTo(2);
            assertThat(requests).endsWith(ShopRequest.CONFIRM);
          } else {
            assertThat(requests)
                .as("session " + id)
                .containsExactly(ShopRequest.HOME, ShopRequest.HOME);
          }
        });
  }

  @Test
  void usersWhoStayTakeTheRefusalAsAnAnswerAndWalkOnToConfirm() throws Exception {
    // Odd sessions: payment refused; even sessions: home refused, and every other one its
    // confirm too. Like the shop, confirm answers 409 when a checkout step of the session was
    // refused, and a refused home page costs nothing of the purchase.
    ScriptedShop shop =
        new ScriptedShop(
            (id, soFar) -> {
              ShopRequest last = soFar.get(soFar.size() - 1);
              if (id % 2 == 1 && last == ShopRequest.PAYMENT) {
                return new Answer(503, 0);
              }
              if (id % 2 == 0 && last == ShopRequest.HOME) {
                return new Answer(503, 0);
              }
              if (id % 4 == 2 && last == ShopRequest.CONFIRM) {
                return new Answer(503, 0);
              }
              return id % 2 == 1 && last == ShopRequest.CONFIRM ? new Answer(409, -1) : Answer.OK;
            });
    UserBehaviour users = PATIENT.withRefusalResponse(RefusalResponse.STAY);

    RunResult r = run(shop, users);

    long odd = shop.sessionsWhere(id -> id % 2 == 1);
    long even = shop.sessionsWhere(id -> id % 2 == 0);
    assertThat(odd).isPositive();
    assertThat(even).isPositive();
    // Every walk goes on to confirm, each page once: nothing is sent again, nobody leaves.
    shop.sent.forEach(
        (id, requests) ->
            assertThat(requests)
                .as("session " + id)
                .containsExactly(
                    ShopRequest.HOME,
                    ShopRequest.DETAILS,
                    ShopRequest.CART,
                    ShopRequest.LOGIN,
                    ShopRequest.SHIPPING,
                    ShopRequest.PAYMENT,
                    ShopRequest.CONFIRM));
    // Half the even sessions bought after a refused home page, the other half were refused at
    // confirm; the odd ones got 409 at confirm, lost to the payment step refused before.
    long confirmRefused = shop.sessionsWhere(id -> id % 4 == 2);
    assertThat(confirmRefused).isPositive();
    assertThat(r.purchases()).isEqualTo(even - confirmRefused);
    assertThat(r.purchasesWithoutRefusal()).isZero();
    assertThat(r.sessionsRefusedAtEntry()).isEqualTo(even);
    assertThat(r.sessionsRefusedMidSession()).isEqualTo(odd);
    assertThat(r.buyers()).isEqualTo(odd + even);
    assertThat(r.buyersLost())
        .containsOnly(
            Map.entry("failed after payment refused", odd),
            Map.entry("confirm refused", confirmRefused));
    assertThat(users.retryDelayAfterRefusalNanos(1, 2 * SECOND)).isEqualTo(-1);
  }

  @Test
  void aRetryWaitsTheServersRetryAfterOrAReloadAndHappensOnce() {
    UserBehaviour leave = PATIENT;
    UserBehaviour retry = PATIENT.withRefusalResponse(RefusalResponse.RETRY_ONCE);

    assertThat(leave.retryDelayAfterRefusalNanos(1, 2 * SECOND)).isEqualTo(-1);
    assertThat(retry.retryDelayAfterRefusalNanos(1, 2 * SECOND)).isEqualTo(2 * SECOND);
    assertThat(retry.retryDelayAfterRefusalNanos(1, -1))
        .isEqualTo(UserBehaviour.RELOAD_DELAY.toNanos());
    assertThat(retry.retryDelayAfterRefusalNanos(2, 0)).isEqualTo(-1);
    // Scaling the users' times leaves their answer to refusals as it was.
    assertThat(retry.scaled(0.1).onRefusal()).isEqualTo(RefusalResponse.RETRY_ONCE);
  }

  @Test
  void refusalsAreServiceUnavailableTooManyRequestsAndRedirects() {
    assertThat(ShopClient.classify(200)).isEqualTo(Outcome.COMPLETED);
    assertThat(ShopClient.classify(503)).isEqualTo(Outcome.REJECTED);
    assertThat(ShopClient.classify(429)).isEqualTo(Outcome.REJECTED);
    assertThat(ShopClient.classify(302)).isEqualTo(Outcome.REJECTED);
    assertThat(ShopClient.classify(303)).isEqualTo(Outcome.REJECTED);
    assertThat(ShopClient.classify(409)).isEqualTo(Outcome.FAILED);
    assertThat(ShopClient.classify(500)).isEqualTo(Outcome.FAILED);
    assertThat(ShopClient.retryAfterNanos("3")).isEqualTo(3 * SECOND);
    assertThat(ShopClient.retryAfterNanos(null)).isEqualTo(-1);
    assertThat(ShopClient.retryAfterNanos("Wed, 21 Oct 2015 07:28:00 GMT")).isEqualTo(-1);
  }
}
