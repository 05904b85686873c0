package org.overloadcontrol.internal.base;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-thread stripes that keep request threads from writing the same memory: each thread
 * gets a stripe index, handed out round robin so that the first threads never share one
 * (thread ids modulo the stripe count collide as often as not). Used by the response-time
 * samples, the token buckets' leases and the striped counters.
 */
public final class Stripes {

  /** Stripes: a power of two at least twice the processors, at most 16. */
  public static final int COUNT =
      Math.min(
          16,
          Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1)
              << 1);

  /**
   * Longs between two stripes' slots in a padded array: 128 bytes, so that no two slots, and no
   * slot and the array's header, share a cache line (or an adjacent-line prefetch pair).
   */
  public static final int PAD = 16;

  /** Element access to a long[]: a {@link #paddedSlots} array, or a sample ring. */
  public static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final ThreadLocal<Integer> STRIPE = ThreadLocal.withInitial(NEXT::getAndIncrement);

  private Stripes() {}

  /** The calling thread's stripe, in [0, COUNT). */
  public static int index() {
    return STRIPE.get() & (COUNT - 1);
  }

  /** A padded array with one slot per stripe; see {@link #slot}. */
  public static long[] paddedSlots() {
    return new long[(COUNT + 2) * PAD];
  }

  /**
   * The index of stripe {@code stripe}'s slot in a {@link #paddedSlots} array: one padding
   * block in from either end, so that no slot shares a cache line with the array's header or a
   * neighbouring object that every request reads (measured: a counter at index 0 kept two
   * threads from scaling).
   */
  public static int slot(int stripe) {
    return (stripe + 1) * PAD;
  }
}
