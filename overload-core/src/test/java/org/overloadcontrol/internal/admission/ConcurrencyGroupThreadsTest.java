package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Stripes;
import org.overloadcontrol.testing.Concurrently;

/**
 * Two classes racing for a concurrency limit large enough that the stripes lease permits
 * ({@link LeasedPermits}), while the held count swings through both halves of the limit and
 * windows close: the limit is never exceeded, and every permit comes back.
 */
class ConcurrencyGroupThreadsTest {

  private static final long MS = 1_000_000L;
  private static final long TARGET = 200 * MS;

  /** Large enough for the largest batch on this machine's stripe count. */
  private static final int LIMIT = 8 * LeasedPermits.MAX_BATCH * Stripes.COUNT;

  private final AtomicLong now = new AtomicLong(1_000_000 * MS);
  private final ConcurrencyGroup group =
      new ConcurrencyGroup(
          "db",
          new ConcurrencyLimit(0.9, 0.8, 1.05, 1, LIMIT),
          LIMIT,
          100 * MS,
          100,
          AdmissionListener.NONE,
          now.get());
  private final ConcurrencyGroup.Partition high =
      group.partition(new ClassDefinition("buy", 5, RequestKind.TRANSACTION, 1), TARGET, TARGET);
  private final ConcurrencyGroup.Partition low =
      group.partition(new ClassDefinition("browse", 1, RequestKind.BROWSING, 1), TARGET, TARGET);

  private record Held(ConcurrencyGroup.Partition partition, int stripe) {}

  @Test
  void theLimitHoldsAndEveryPermitComesBack() throws Exception {
    ConcurrentLinkedQueue<Held> running = new ConcurrentLinkedQueue<>();
    AtomicInteger held = new AtomicInteger();
    AtomicInteger overLimit = new AtomicInteger();
    AtomicInteger steps = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    Concurrently.run(
        4,
        50_000,
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          // Phases of filling and draining, so that the held count crosses half the limit.
          boolean filling = (steps.incrementAndGet() / 4_000) % 2 == 0;
          if (random.nextInt(10) < (filling ? 7 : 3)) {
            ConcurrencyGroup.Partition p = random.nextInt(4) == 0 ? high : low;
            int stripe = random.nextInt(Stripes.COUNT);
            if (p.tryAcquire(stripe)) {
              if (held.incrementAndGet() > LIMIT) {
                overLimit.incrementAndGet();
              }
              running.add(new Held(p, stripe));
            } else {
              refused.incrementAndGet();
            }
          } else {
            Held h = running.poll();
            if (h != null) {
              held.decrementAndGet();
              // Often on another stripe than the one it took from, as an async completion.
              h.partition().release(random.nextBoolean() ? h.stripe() : random.nextInt(16));
              h.partition().record(TARGET / 2, now.get(), h.stripe());
            }
          }
          if (random.nextInt(2_000) == 0) {
            group.tick(now.addAndGet(100 * MS));
          }
        });
    assertThat(overLimit.get()).isZero();
    assertThat(refused.get()).isPositive(); // the limit was reached
    for (Held h; (h = running.poll()) != null; ) {
      h.partition().release(h.stripe());
    }
    assertThat(group.inFlight()).isZero();
    assertThat(high.inFlightNow()).isZero();
    assertThat(low.inFlightNow()).isZero();
    assertThat(group.limit()).isEqualTo(LIMIT);
    // No permit was lost in a pocket or counted twice: after a window without the high class,
    // one class takes the whole limit again, and not one more.
    group.tick(now.addAndGet(2_000 * MS));
    for (int s = 0; s < Stripes.COUNT; s++) {
      assertThat(low.tryAcquire(s)).isTrue(); // leaves a batch in every stripe's pocket
      low.release(s);
    }
    int taken = 0;
    while (low.tryAcquire(0)) {
      taken++;
    }
    assertThat(taken).isEqualTo(LIMIT);
  }
}
