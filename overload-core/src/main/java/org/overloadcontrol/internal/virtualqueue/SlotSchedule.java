package org.overloadcontrol.internal.virtualqueue;

import java.util.concurrent.locks.ReentrantLock;

/**
 * TokenGen's schedule of future arrivals (WebQ, Suresh et al., Section III-A): a circular array
 * where {@code N[k]} is the work, in hardness-weighted subunits, already scheduled to reach the
 * server {@code k} seconds from now. An arrival of hardness {@code h} takes the smallest
 * {@code k} with {@code N[k] < C} and adds {@code h} to {@code N[k]}; its wait is {@code k}
 * seconds. Below capacity {@code N[0] < C} holds and the wait is zero. The array shifts by one
 * slot every second; the shift is done lazily by whichever call first sees a later second. The
 * array spans {@code maxWaitSeconds + 1} slots: an arrival that finds every slot full is refused.
 *
 * <p>Capacity changes (Section III-A): when C grows, new arrivals fill the new room in the near
 * slots, so for a while requests are not served first-come first-served, as the paper accepts.
 * When C shrinks to C' the work already promised cannot all be served when promised: the
 * {@code C·T} subunits scheduled over the next T seconds take {@code T' = C·T / C'} seconds. The
 * schedule models exactly that by pouring each slot's excess over C' into the next slot (a
 * fluid queue), so slots up to T' are full and the next arrival waits T'. When the promised work
 * was contiguous this is the paper's rule; when it had gaps, the gaps absorb the excess first.
 * Work spilling past the last slot stays in the last slot (nobody can be scheduled there).
 * Capacity {@code +∞} means "do not shape" (the training period): every arrival gets slot 0.
 *
 * <p>One replica of several (§III-B): {@link #share} gives this replica's share S_i of the
 * cluster capacity C and the work the other replicas promised; slot k is then open while its
 * work is below the usable capacity {@code C_i[k] = min(S_i, C − Σ_{j≠i} N_j[k])} (equations 2
 * and 3), so the replicas together never promise a second more than C. Alone, S_i = C and no
 * other replica promised anything.
 *
 * <p>Concurrency: one short lock. An arrival's "find the first open slot and add to it" must be
 * atomic with respect to other arrivals, to the lazy shift (which clears and reuses slots) and to
 * a capacity change (which rewrites the whole array); a lock-free version would need every slot
 * to carry its absolute second and still could not re-bucket atomically. The critical section is
 * short: the index of the first slot that may be open is kept, so the search is amortised O(1),
 * and the position of a waiting request is a sum over at most {@code maxWaitSeconds} slots, paid
 * only by requests that are told to wait. Only queue-protected paths take this lock, and a
 * request told to wait costs far more (a whole page) than the lock does.
 */
final class SlotSchedule {

  private final ReentrantLock lock = new ReentrantLock();
  private final int slotCount;

  /** Subunits scheduled for absolute second s live in slot {@code s mod slotCount}. */
  private final double[] work;

  /** Requests scheduled per slot (fractional after a capacity cut re-buckets them). */
  private final double[] requests;

  private long baseSecond;
  private double capacity;

  /** Relative index below which every slot is full; a search starts here. */
  private int firstOpen;

  /** S_i of equation 1; +∞ alone. */
  private double share = Double.POSITIVE_INFINITY;

  /** This replica's rank among the members over their number; 0 alone. */
  private double phase;

  private double clusterCapacity = Double.POSITIVE_INFINITY;

  /** Σ_{j≠i} N_j for the seconds from {@link #othersFrom}. */
  private double[] others = new double[0];

  private long othersFrom;

  /** Subunits of arrivals per Unix second: L_i of equation 1, this second and the two before. */
  private long arrivalSecond;

  private final double[] arrivals = new double[3];

  /**
   * @param maxWaitSeconds the longest wait ever handed out (the array has one more slot)
   * @param capacity subunits per second, or {@link Double#POSITIVE_INFINITY} to not shape
   * @param nowSecond the current second in the caller's time base
   */
  public SlotSchedule(int maxWaitSeconds, double capacity, long nowSecond) {
    if (maxWaitSeconds < 0) {
      throw new IllegalArgumentException("maxWaitSeconds must be >= 0: " + maxWaitSeconds);
    }
    requirePositive(capacity);
    this.slotCount = maxWaitSeconds + 1;
    this.work = new double[slotCount];
    this.requests = new double[slotCount];
    this.capacity = capacity;
    this.baseSecond = nowSecond;
    this.arrivalSecond = nowSecond;
  }

  /**
   * Schedules one arrival of {@code hardness} subunits at second {@code nowSecond}, first
   * applying {@code currentCapacity} if it changed.
   *
   * @return the wait and position, or {@link Reservation#FULL}
   */
  public Reservation reserve(long nowSecond, double hardness, double currentCapacity) {
    if (!(hardness > 0) || Double.isInfinite(hardness)) {
      throw new IllegalArgumentException("hardness must be positive and finite: " + hardness);
    }
    requirePositive(currentCapacity);
    lock.lock();
    try {
      advance(nowSecond);
      countArrival(nowSecond, hardness);
      applyCapacity(currentCapacity);
      for (int k = firstOpen; k < slotCount; k++) {
        int slot = slot(k);
        double usable = usable(k);
        if (work[slot] < usable) {
          work[slot] += hardness;
          requests[slot] += 1;
          if (k == firstOpen && work[slot] >= usable) {
            firstOpen = k + 1;
          }
          return new Reservation(k, k == 0 ? 0 : position(k));
        }
        if (k == firstOpen) {
          firstOpen = k + 1;
        }
      }
      return Reservation.FULL;
    } finally {
      lock.unlock();
    }
  }

  /** Sets the capacity now (also applied by the next {@link #reserve}). */
  public void capacity(long nowSecond, double newCapacity) {
    requirePositive(newCapacity);
    lock.lock();
    try {
      advance(nowSecond);
      applyCapacity(newCapacity);
    } finally {
      lock.unlock();
    }
  }

  /**
   * This replica's share of a cluster (§III-B): S_i, the cluster capacity C, the work the other
   * replicas promised for each second from {@code othersFrom}, and this replica's phase: its
   * rank among the n members over n (see {@link #usable}).
   */
  public void share(
      long nowSecond,
      double share,
      double clusterCapacity,
      long othersFrom,
      double[] others,
      double phase) {
    if (!(phase >= 0 && phase < 1)) {
      throw new IllegalArgumentException("phase must be in [0, 1): " + phase);
    }
    lock.lock();
    try {
      advance(nowSecond);
      this.share = share;
      this.phase = phase;
      this.clusterCapacity = clusterCapacity;
      this.othersFrom = othersFrom;
      this.others = others.clone();
      firstOpen = 0; // the usable capacities changed: a full slot may have room again
    } finally {
      lock.unlock();
    }
  }

  /**
   * L_i of equation 1: the subunits that arrived (granted or not) in the last whole second
   * ({@code [0]}) and in the one before ({@code [1]}).
   */
  public double[] arrivals(long nowSecond) {
    lock.lock();
    try {
      countArrival(nowSecond, 0);
      return new double[] {arrivals[1], arrivals[2]};
    } finally {
      lock.unlock();
    }
  }

  private void countArrival(long nowSecond, double hardness) {
    long shift = nowSecond - arrivalSecond;
    if (shift > 0) {
      arrivals[2] = shift == 1 ? arrivals[1] : shift == 2 ? arrivals[0] : 0;
      arrivals[1] = shift == 1 ? arrivals[0] : 0;
      arrivals[0] = 0;
      arrivalSecond = nowSecond;
    }
    if (shift >= 0) {
      arrivals[0] += hardness;
    }
  }

  /** N_i of equation 2: the subunits promised for each second from {@code nowSecond} on. */
  public double[] promised(long nowSecond) {
    lock.lock();
    try {
      advance(nowSecond);
      double[] out = new double[slotCount];
      for (int k = 0; k < slotCount; k++) {
        out[k] = work[slot(k)];
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** The subunits scheduled {@code k} seconds after {@code nowSecond}. */
  public double scheduledWork(long nowSecond, int k) {
    lock.lock();
    try {
      advance(nowSecond);
      return k < 0 || k >= slotCount ? 0 : work[slot(k)];
    } finally {
      lock.unlock();
    }
  }

  /** The wait the next arrival would get now (not reserving), or -1 when full. */
  public int currentWaitSeconds(long nowSecond) {
    lock.lock();
    try {
      advance(nowSecond);
      for (int k = firstOpen; k < slotCount; k++) {
        if (work[slot(k)] < usable(k)) {
          return k;
        }
      }
      return -1;
    } finally {
      lock.unlock();
    }
  }

  /** The capacity in force, subunits per second. */
  public double capacity() {
    lock.lock();
    try {
      return capacity;
    } finally {
      lock.unlock();
    }
  }

  /** S_i, this replica's share of the cluster capacity (the capacity when alone). */
  public double share() {
    lock.lock();
    try {
      return Math.min(capacity, share);
    } finally {
      lock.unlock();
    }
  }

  /** The longest wait this schedule hands out. */
  public int maxWaitSeconds() {
    return slotCount - 1;
  }

  /**
   * C_i[k] of equation 3 (alone: the capacity). A replica's share is rarely whole (C/3 of 10 is
   * 3.33), and a second stays open while its work is below it, so each replica would fill a
   * whole 4 and the cluster 12 before their promises reach each other. In a cluster the share is
   * therefore spent in whole subunits: second s gets ⌊S(s+1)+φ⌋ − ⌊Ss+φ⌋, which averages S, and
   * with equal shares and the phases φ = rank/n adds up to exactly C over the replicas in every
   * second (Hermite's identity: Σ_r ⌊x + r/n⌋ = ⌊nx⌋).
   */
  private double usable(int k) {
    double c = Math.min(capacity, share);
    if (share < capacity && c != Math.rint(c)) {
      double start = c * (baseSecond + k) + phase;
      c = Math.floor(start + c) - Math.floor(start);
    }
    long i = baseSecond + k - othersFrom;
    if (i >= 0 && i < others.length) {
      c = Math.min(c, clusterCapacity - others[(int) i]);
    }
    return c;
  }

  private int slot(int k) {
    return (int) Math.floorMod(baseSecond + k, (long) slotCount);
  }

  /** Shifts out the seconds that have passed; a reading from an earlier second is ignored. */
  private void advance(long nowSecond) {
    long shift = nowSecond - baseSecond;
    if (shift <= 0) {
      return;
    }
    if (shift >= slotCount) {
      java.util.Arrays.fill(work, 0);
      java.util.Arrays.fill(requests, 0);
    } else {
      for (long s = baseSecond; s < nowSecond; s++) {
        int slot = (int) Math.floorMod(s, (long) slotCount);
        work[slot] = 0;
        requests[slot] = 0;
      }
    }
    baseSecond = nowSecond;
    firstOpen = (int) Math.max(0, firstOpen - shift);
  }

  private void applyCapacity(double newCapacity) {
    if (newCapacity == capacity) {
      return;
    }
    double old = capacity;
    capacity = newCapacity;
    if (newCapacity < old) {
      rebucket(newCapacity);
    }
    firstOpen = 0;
  }

  /** Pours each slot's excess over {@code c} into the next: the fluid queue of Section III-A. */
  private void rebucket(double c) {
    double carryWork = 0;
    double carryRequests = 0;
    for (int k = 0; k < slotCount; k++) {
      int slot = slot(k);
      double total = work[slot] + carryWork;
      double count = requests[slot] + carryRequests;
      if (total > c && k < slotCount - 1) {
        double kept = c / total;
        work[slot] = c;
        requests[slot] = count * kept;
        carryWork = total - c;
        carryRequests = count - requests[slot];
      } else {
        work[slot] = total;
        requests[slot] = count;
        carryWork = 0;
        carryRequests = 0;
      }
    }
  }

  private long position(int k) {
    double ahead = 0;
    for (int j = 0; j <= k; j++) {
      ahead += requests[slot(j)];
    }
    return Math.max(1, Math.round(ahead));
  }

  private static void requirePositive(double capacity) {
    if (!(capacity > 0)) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
  }
}
