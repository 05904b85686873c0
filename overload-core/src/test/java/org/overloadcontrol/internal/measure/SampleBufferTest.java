package org.overloadcontrol.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Stripes;
import org.overloadcontrol.testing.Concurrently;

class SampleBufferTest {

  private final SampleBuffer buffer = new SampleBuffer();

  private static List<Long> drain(SampleBuffer b, long[] countsOut) {
    List<Long> values = new ArrayList<>();
    long[] counts = b.drain(values::add);
    System.arraycopy(counts, 0, countsOut, 0, 2);
    return values;
  }

  @Test
  void aRoundGetsTheSamplesWrittenSinceTheLastRoundFromEveryStripe() {
    long[] counts = new long[2];
    buffer.add(0, 10L);
    buffer.add(1, 20L);
    buffer.add(Stripes.COUNT - 1, 30L);
    assertThat(buffer.pending()).isEqualTo(3);

    assertThat(drain(buffer, counts)).containsExactlyInAnyOrder(10L, 20L, 30L);
    assertThat(counts[0]).isEqualTo(3);
    assertThat(buffer.pending()).isZero();

    buffer.add(1, 40L);
    assertThat(drain(buffer, counts)).containsExactly(40L);
    assertThat(counts[0]).isEqualTo(1);
    assertThat(drain(buffer, counts)).isEmpty();
    assertThat(counts[0]).isZero();
  }

  @Test
  void aStripeWrittenPastItsCapacityKeepsItsLatestSamplesAndCountsThemAll() {
    // The latest CAPACITY − 1: the oldest slot of a full ring is the one a writer that is
    // storing the next sample right now would be overwriting.
    long[] counts = new long[2];
    int written = SampleBuffer.CAPACITY + 100;
    for (long v = 0; v < written; v++) {
      assertThat(buffer.add(2, v)).isEqualTo(v + 1);
    }
    assertThat(buffer.pending()).isEqualTo(written);

    List<Long> kept = drain(buffer, counts);

    assertThat(counts[0]).isEqualTo(written);
    assertThat(kept).hasSize(SampleBuffer.CAPACITY - 1);
    assertThat(kept.get(0)).isEqualTo(101L);
    assertThat(kept.get(kept.size() - 1)).isEqualTo(written - 1L);
  }

  @Test
  void staleCompletionsAreCountedPerRound() {
    long[] counts = new long[2];
    buffer.countStale(0);
    buffer.countStale(3);
    buffer.add(0, 5L);
    assertThat(drain(buffer, counts)).containsExactly(5L);
    assertThat(counts[1]).isEqualTo(2);
    drain(buffer, counts);
    assertThat(counts[1]).isZero();
  }

  @Test
  void writersOnTheirOwnStripesAreCountedExactlyAndNoSampleIsReadTwice() throws Exception {
    // One writer per stripe, as when a container's threads are no more than the stripes;
    // rounds drain all the while, more often than a stripe can fill its ring.
    int perWriter = 200_000;
    AtomicInteger nextStripe = new AtomicInteger();
    ThreadLocal<Integer> stripe = ThreadLocal.withInitial(nextStripe::getAndIncrement);
    ThreadLocal<long[]> next = ThreadLocal.withInitial(() -> new long[1]);
    ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
    long[] drainedCount = new long[1];
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread round =
        new Thread(
            () -> {
              while (writing.get()) {
                drainedCount[0] += buffer.drain(seen::add)[0];
              }
            });
    round.start();
    Concurrently.run(
        Stripes.COUNT,
        perWriter,
        () -> {
          int s = stripe.get();
          long n = next.get()[0]++;
          buffer.add(s, s * (long) perWriter + n);
          if ((n & 63) == 63) {
            // Give the round a chance on a machine with fewer cores than writers.
            Thread.yield();
          }
        });
    writing.set(false);
    round.join();
    drainedCount[0] += buffer.drain(seen::add)[0];

    assertThat(drainedCount[0]).isEqualTo((long) Stripes.COUNT * perWriter);
    // Every value kept at most once (a slot overwritten while a round read it would show up
    // twice), and each one a value that was written. On a machine with fewer cores than
    // writers a stripe can outrun the round by a whole ring, so not all of them are kept.
    assertThat(seen).isNotEmpty().doesNotHaveDuplicates();
    assertThat(seen).allSatisfy(v -> assertThat(v).isBetween(0L, Stripes.COUNT * (long) perWriter));
  }
}
