package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DatabaseTest {

  private final ExecutorService executor = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void holdsOneConnectionForTheServiceTime() throws Exception {
    List<Duration> slept = new ArrayList<>();
    List<Integer> inUseWhileSleeping = new ArrayList<>();
    Database[] db = new Database[1];
    db[0] =
        new Database(
            2,
            Duration.ZERO,
            d -> {
              slept.add(d);
              inUseWhileSleeping.add(db[0].inUseCount());
            });

    db[0].query(ShopPage.PAYMENT.serviceTime(0.5));

    assertThat(slept).containsExactly(Duration.ofMillis(250));
    assertThat(inUseWhileSleeping).containsExactly(1);
    assertThat(db[0].inUseCount()).isZero();
  }

  @Test
  void zeroServiceTimeTakesNoConnectionAndDoesNotSleep() throws Exception {
    List<Duration> slept = new ArrayList<>();
    Database db = new Database(1, Duration.ZERO, slept::add);
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Database full =
        new Database(
            1,
            Duration.ZERO,
            d -> {
              holding.countDown();
              release.await();
            });
    Future<?> holder =
        executor.submit(
            () -> {
              full.query(Duration.ofMillis(1));
              return null;
            });
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

    db.query(Duration.ZERO);
    full.query(Duration.ZERO); // succeeds although the only connection is held

    assertThat(slept).isEmpty();
    release.countDown();
    holder.get(10, TimeUnit.SECONDS);
  }

  @Test
  void answersBusyWhenNoConnectionFreesInTimeAndServesAgainAfterwards() throws Exception {
    CountDownLatch holding = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    Database db =
        new Database(
            2,
            Duration.ZERO,
            d -> {
              holding.countDown();
              release.await();
            });
    List<Future<?>> holders = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      holders.add(
          executor.submit(
              () -> {
                db.query(Duration.ofMillis(1));
                return null;
              }));
    }
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(db.inUseCount()).isEqualTo(2);

    assertThatThrownBy(() -> db.query(Duration.ofMillis(1)))
        .isInstanceOf(Database.BusyException.class);

    release.countDown();
    for (Future<?> f : holders) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertThat(db.inUseCount()).isZero();
    db.query(Duration.ofMillis(1)); // the released connections serve again
  }

  @Test
  void releasesTheConnectionWhenInterruptedWhileWorking() {
    Database db =
        new Database(
            1,
            Duration.ZERO,
            d -> {
              throw new InterruptedException();
            });
    assertThatThrownBy(() -> db.query(Duration.ofMillis(1)))
        .isInstanceOf(InterruptedException.class);
    assertThat(db.inUseCount()).isZero();
  }

  @Test
  void refusesAnEmptyPool() {
    assertThatThrownBy(() -> new Database(0, Duration.ZERO))
        .hasMessageContaining("connectionCount");
  }
}
