package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Stripes;

class TokenBucketTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void admitsAtMostRatePerSecondWithDepthOne() {
    long t0 = 5 * SECOND;
    TokenBucket bucket = new TokenBucket(10.0, 1, t0);
    int admitted = 0;
    // 1000 arrivals per second for 10 seconds.
    for (int i = 0; i < 10_000; i++) {
      if (bucket.tryAcquire(t0 + i * (SECOND / 1000))) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(100);
  }

  @Test
  void depthAllowsABurstThenTheRate() {
    long t0 = 0;
    TokenBucket bucket = new TokenBucket(2.0, 5, t0);
    int burst = 0;
    while (bucket.tryAcquire(t0)) {
      burst++;
    }
    assertThat(burst).isEqualTo(5);
    assertThat(bucket.tryAcquire(t0 + SECOND / 2 - 1)).isFalse();
    assertThat(bucket.tryAcquire(t0 + SECOND / 2)).isTrue();
  }

  @Test
  void reportsTimeUntilNextToken() {
    TokenBucket bucket = new TokenBucket(4.0, 1, 0);
    assertThat(bucket.nanosUntilToken(0)).isZero();
    assertThat(bucket.tryAcquire(0)).isTrue();
    assertThat(bucket.nanosUntilToken(0)).isEqualTo(SECOND / 4);
    assertThat(bucket.nanosUntilToken(SECOND / 8)).isEqualTo(SECOND / 8);
  }

  @Test
  void raisingTheRateRescalesWhatTheBucketOwes() {
    TokenBucket bucket = new TokenBucket(0.05, 1, 0);
    assertThat(bucket.tryAcquire(0)).isTrue();
    assertThat(bucket.nanosUntilToken(0)).isEqualTo(20 * SECOND);
    bucket.setRate(100.0, 0);
    // Owed 20 s at 0.05/s becomes 10 ms at 100/s, not 20 s.
    assertThat(bucket.nanosUntilToken(0)).isEqualTo(SECOND / 100);
    assertThat(bucket.tryAcquire(SECOND / 100)).isTrue();
  }

  @Test
  void aRateTooSmallToCountInNanosecondsStillRefusesAfterItsOneToken() {
    // 1e9 / 1e-300 ns does not fit a long: the next token's time once wrapped past
    // Long.MAX_VALUE to the far past, and every request after the first was admitted.
    for (double rate : new double[] {1e-300, 1e-11, Double.MIN_VALUE}) {
      for (int depth : new int[] {1, 3, 1_000_000}) {
        long t0 = 7 * SECOND;
        TokenBucket bucket = new TokenBucket(rate, depth, t0);
        int admitted = 0;
        for (int i = 0; i < 30; i++) {
          if (bucket.tryAcquire(t0 + i * SECOND)) {
            admitted++;
          }
        }
        // A bucket holds at most 2^60 ns (36 years) of its rate beyond its first token.
        assertThat(admitted).as("rate %s, depth %s", rate, depth).isEqualTo(Math.min(depth, 2));
        assertThat(bucket.nanosUntilToken(t0 + 30 * SECOND))
            .as("rate %s, depth %s", rate, depth)
            .isGreaterThan(365L * 24 * 3600 * SECOND);
      }
    }
  }

  @Test
  void extremeRateChangesKeepTheBucketInDebtNotInCredit() {
    TokenBucket bucket = new TokenBucket(1e300, 1, SECOND);
    assertThat(bucket.tryAcquire(SECOND)).isTrue();
    // The debt of one nanosecond, rescaled to the longest interval, must not wrap.
    bucket.setRate(1e-300, SECOND);
    assertThat(bucket.tryAcquire(2 * SECOND)).isFalse();
    bucket.setRate(0.05, 2 * SECOND);
    // What it owed at 1e-300/s is rescaled to at most one interval of the new rate.
    assertThat(bucket.tryAcquire(2 * SECOND)).isFalse();
    assertThat(bucket.tryAcquire(22 * SECOND)).isTrue();
    assertThat(bucket.tryAcquire(22 * SECOND)).isFalse();
  }

  @Test
  void aHugeRateAdmitsEveryRequestANanosecondApart() {
    TokenBucket bucket = new TokenBucket(1e300, 1, 0);
    for (int i = 0; i < 1000; i++) {
      assertThat(bucket.tryAcquire(i)).isTrue();
    }
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new TokenBucket(0, 1, 0)).hasMessageContaining("rate");
    assertThatThrownBy(() -> new TokenBucket(1, 0, 0)).hasMessageContaining("depth");
  }

  @Test
  void concurrentAcquirersNeverTakeMoreThanTheDepth() throws Exception {
    for (int round = 0; round < 50; round++) {
      TokenBucket bucket = new TokenBucket(1.0, 8, 0);
      AtomicInteger taken = new AtomicInteger();
      CountDownLatch start = new CountDownLatch(1);
      Thread[] threads = new Thread[4];
      for (int t = 0; t < threads.length; t++) {
        threads[t] =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < 100; i++) {
                    if (bucket.tryAcquire(0)) {
                      taken.incrementAndGet();
                    }
                  }
                });
        threads[t].start();
      }
      start.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(taken.get()).isEqualTo(8);
    }
  }

  @Test
  void aShallowOrSlowBucketNeverLeases() {
    assertThat(new TokenBucket(1e9, 1, 0).leaseSize()).isEqualTo(1);
    assertThat(new TokenBucket(1e9, 2 * Stripes.COUNT, 0).leaseSize()).isEqualTo(1);
    // A millisecond of 500/s is less than a token.
    assertThat(new TokenBucket(500, 10_000, 0).leaseSize()).isEqualTo(1);
  }

  @Test
  void leasesKeepTheBurstBoundAndLoseNoTokenAcrossThreads() throws Exception {
    int depth = 1000;
    TokenBucket bucket = new TokenBucket(1e9, depth, 0);
    assertThat(bucket.leaseSize()).isGreaterThan(1);
    // Time stands still: the full bucket is all there is. Four threads (on different stripes)
    // spend it; every thread keeps trying until its pocket and the bucket are both empty.
    int threads = 4;
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      workers[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                while (bucket.tryAcquire(5)) {
                  admitted.incrementAndGet();
                }
              });
      workers[t].start();
    }
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
    // Exactly the bucket: every token spent was taken from it, none twice, and no thread
    // stops while its own stripe's pocket holds one.
    assertThat(admitted.get()).isEqualTo(depth);
  }

  @Test
  void aLeasingBucketHoldsItsRateOverTime() {
    // 2 million tokens a second, depth 1000: leases of up to 1000 / (2 x stripes) tokens.
    TokenBucket bucket = new TokenBucket(2e6, 1000, 0);
    assertThat(bucket.leaseSize()).isGreaterThan(1);
    long admitted = 0;
    // Four million arrivals a second for a tenth of a second, one thread.
    for (long t = 0; t < SECOND / 10; t += 250) {
      if (bucket.tryAcquire(t)) {
        admitted++;
      }
    }
    // 200,000 tokens accrue, plus the full bucket at the start; a pocket may be left over.
    assertThat(admitted).isBetween(200_000L + 1000 - (bucket.leaseSize() - 1), 200_000L + 1000);
  }

  @Test
  void aCutForfeitsThePocketsSoTheNewRateHoldsAtOnce() {
    TokenBucket bucket = new TokenBucket(1e9, 1000, 0);
    int lease = bucket.leaseSize();
    assertThat(bucket.tryAcquire(0)).isTrue(); // leases, the rest of the lease in the pocket
    bucket.setRate(2e8, 0); // a cut to a rate that still leases
    assertThat(bucket.leaseSize()).isEqualTo(lease);
    int admitted = 0;
    while (bucket.tryAcquire(0)) {
      admitted++;
    }
    // What the bucket itself still held at the new rate: its depth less the lease taken, never
    // the forfeited pocket (lease - 1 tokens) on top.
    assertThat(admitted).isPositive().isLessThanOrEqualTo(1000 - lease);
    assertThat(bucket.tryAcquire(0)).isFalse();
  }
}
