package org.overloadcontrol.internal.measure;

import java.lang.invoke.VarHandle;
import java.util.function.LongConsumer;
import org.overloadcontrol.internal.base.Stripes;

/**
 * The response-time samples of one class since its last window: a ring of the latest
 * {@link #CAPACITY} − 1 samples per stripe, written by request threads with plain stores and
 * drained at the window's close into the {@link P90Estimator}'s histogram (Welsh &amp; Culler
 * 2003, §3.2, collect the samples of a round; the round takes their 90th percentile). The
 * concurrency limit's group keeps its windows' samples in one too.
 *
 * <p>Why not HdrHistogram's {@code Recorder}, which this replaced: a recorded sample cost its
 * writer four locked instructions on three or more cache lines (the phaser's entry and exit,
 * the count and the total), each window copied and cleared a 26 KB histogram per stripe, and a
 * class held about 80 KB per stripe. Here a sample is two plain stores, one of them to a
 * line the stripe's next samples reuse, a window's close reads only the samples written since
 * the last one, and a class holds 4 KB per stripe. The histogram (HdrHistogram) stays where the
 * percentile is taken, at the window's close.
 *
 * <p>Lossy by design, as sampling already is: two threads that share a stripe and write at the
 * same instant may keep one sample of the two, and a stripe written more than
 * {@link #CAPACITY} − 1 times between two windows keeps only its latest samples. The count of
 * samples written ({@link #pending}) is what the window reports; the percentile is of the
 * samples kept. Neither loss depends on a sample's value, so the percentile is unbiased.
 *
 * <p>Concurrency: a writer stores the value, then publishes the stripe's count with a release
 * store; the close reads the count with an acquire load and then the values below it. The
 * close (one at a time, under the windows' guard) owns the read positions.
 */
public final class SampleBuffer {

  /** Samples kept per stripe between two windows: a power of two. */
  public static final int CAPACITY = 512;

  private static final int MASK = CAPACITY - 1;
  private static final VarHandle LONGS = Stripes.SLOTS;

  /** Per stripe, its ring of {@link #CAPACITY} values; rings one padding block apart. */
  private final long[] values = new long[Stripes.PAD + Stripes.COUNT * (CAPACITY + Stripes.PAD)];

  /**
   * Per stripe, in its own padded line: at {@code slot} the samples ever written, at
   * {@code slot + 1} the stale completions since the last window (see {@link #countStale}).
   */
  private final long[] counts = Stripes.paddedSlots();

  /** A stripe's values as a close copies them, before it checks that none was overwritten. */
  private final long[] scratch = new long[CAPACITY];

  /** Per stripe, the written count up to which the last close read (window state). */
  private final long[] read = Stripes.paddedSlots();

  private static int ring(int stripe) {
    return Stripes.PAD + stripe * (CAPACITY + Stripes.PAD);
  }

  /**
   * Keeps one sample in {@code stripe}'s ring; returns the stripe's count of samples ever
   * written, this one included.
   */
  public long add(int stripe, long value) {
    int slot = Stripes.slot(stripe);
    long n = (long) LONGS.getOpaque(counts, slot);
    LONGS.setOpaque(values, ring(stripe) + (int) (n & MASK), value);
    LONGS.setRelease(counts, slot, n + 1);
    return n + 1;
  }

  /** Counts a completion left out as stale, in {@code stripe}'s line (a plain increment). */
  public void countStale(int stripe) {
    int at = Stripes.slot(stripe) + 1;
    LONGS.setOpaque(counts, at, (long) LONGS.getOpaque(counts, at) + 1);
  }

  /** Samples written since the last {@link #drain}, over all stripes. */
  public long pending() {
    long sum = 0;
    for (int i = 0; i < Stripes.COUNT; i++) {
      int slot = Stripes.slot(i);
      long unread = (long) LONGS.getOpaque(counts, slot) - (long) LONGS.getOpaque(read, slot);
      sum += Math.max(0L, unread);
    }
    return sum;
  }

  /**
   * Hands the samples written since the last drain to {@code sink} (at most
   * {@link #CAPACITY} − 1 per stripe, the latest, each once) and starts a new window's count;
   * returns {@code {written, stale}}: the samples written (kept or not) and the stale completions
   * counted since the last drain. Window state: one drain at a time.
   */
  public long[] drain(LongConsumer sink) {
    long written = 0;
    long stale = 0;
    for (int i = 0; i < Stripes.COUNT; i++) {
      int slot = Stripes.slot(i);
      long end = (long) LONGS.getAcquire(counts, slot);
      long start = (long) LONGS.getOpaque(read, slot);
      // A racing writer of the same stripe may have moved the count back by a sample or two:
      // those samples are lost, and the stripe is read again once it passes the old position.
      if (end - start > 0) {
        written += end - start;
        int ring = ring(i);
        long from = Math.max(start, end - CAPACITY);
        for (long k = from; k < end; k++) {
          scratch[(int) (k & MASK)] = (long) LONGS.getOpaque(values, ring + (int) (k & MASK));
        }
        // Writers that went on meanwhile overwrote the oldest of those slots: the writer of
        // sample n stores it before it counts it, so with the count now at c, samples below
        // c + 1 − CAPACITY may have been replaced by newer ones (read twice, once here and
        // once next window, if kept).
        VarHandle.acquireFence();
        long now = (long) LONGS.getOpaque(counts, slot);
        for (long k = Math.max(from, now + 1 - CAPACITY); k < end; k++) {
          sink.accept(scratch[(int) (k & MASK)]);
        }
        LONGS.setOpaque(read, slot, end);
      }
      stale += (long) LONGS.getOpaque(counts, slot + 1);
      LONGS.setOpaque(counts, slot + 1, 0L);
    }
    return new long[] {written, stale};
  }
}
