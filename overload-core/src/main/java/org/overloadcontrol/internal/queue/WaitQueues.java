package org.overloadcontrol.internal.queue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.StripedCounts;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.queue.QueueListener;

/**
 * Execution permits and the LIFO-Pri wait queues (Singhmar et al. 2004, Algorithm 1): requests
 * that were admitted but find no free permit wait, suspended, in the bounded queue of their
 * class, and when a permit frees the next one is chosen thus:
 *
 * <ol>
 *   <li>transaction classes strictly before browsing classes, higher rank (a later step of the
 *       purchase) first, each transaction queue FIFO;</li>
 *   <li>among browsing queues, argmax(utility × queue length), so none starves; served FIFO,
 *       or LIFO while {@link BrowsingOrderSwitch} says the server is overloaded.</li>
 * </ol>
 *
 * With the single layout, one queue holds every class and the order applies to it (the paper's
 * SQ). A waiter is eligible only if its endpoint also has a free permit (SEDA's per-stage
 * limits).
 *
 * <p>Concurrency. The fast path ({@link #tryAcquire}) takes no lock: when nobody waits it takes
 * a permit by CAS. Everything that touches a queue holds {@link #lock}, which only requests that
 * wait (or leave a queue) ever take. A release is lock-free unless somebody waits, and even
 * then never waits for the lock ({@link #drain}). The race
 * between "a request finds no permit and enqueues" and "a permit is released by a thread that
 * saw no waiter" is closed Dekker-style: the enqueuer publishes {@link #waitingCount} and then
 * looks for free permits ({@link #drain}); the releaser returns its permit and then reads
 * {@link #waitingCount}. With both variables atomic, at least one of them sees the other, so a
 * free permit never sits beside a waiter.
 *
 * <p>Ownership. A waiter leaves its queue once, under the lock, by being resumed, expired or
 * cancelled; the one that removes it owns its outcome. Listeners are called after the lock is
 * released.
 */
public final class WaitQueues {

  private final QueueSettings settings;
  private final Ticker ticker;
  private final Scheduler scheduler;
  private final QueueListener listener;
  private final ReentrantLock lock = new ReentrantLock();

  /** Set by a {@link #drain} that found the lock held: the holder drains once more. */
  private final AtomicBoolean drainRequested = new AtomicBoolean();

  private final AtomicInteger globalInUse = new AtomicInteger();

  /**
   * Whether an overall limit is set. Without one {@link #globalInUse} is not kept: only
   * metrics read it, and they sum the endpoints' counts instead; kept, it was one more shared
   * line every request wrote twice (the concurrency limit's permits go through here without
   * any {@code queue.*} key).
   */
  private final boolean globalLimited;

  private final AtomicInteger waitingCount = new AtomicInteger();

  /** Requests of admitted sessions among {@link #waitingCount}, read lock-free. */
  private final AtomicInteger sessionWaitingCount = new AtomicInteger();

  private final int globalLimit;
  private final ConcurrentHashMap<String, EndpointPermits> endpoints = new ConcurrentHashMap<>();
  private final Map<String, AdaptivePermitController> adaptive = new ConcurrentHashMap<>();
  private final Map<String, ClassQueue> byClass = new HashMap<>();
  private final List<ClassQueue> transactionQueues = new ArrayList<>();
  private final List<ClassQueue> browsingQueues = new ArrayList<>();
  private final ClassQueue single;
  private final BrowsingOrderSwitch orderSwitch;
  private volatile boolean closed;

  public WaitQueues(
      QueueSettings settings,
      Collection<ClassDefinition> classes,
      Ticker ticker,
      Scheduler scheduler,
      DoubleSupplier cpuUtilisation,
      QueueListener listener) {
    this.settings = settings;
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.listener = listener;
    this.globalLimit = settings.permits() > 0 ? settings.permits() : Integer.MAX_VALUE;
    this.globalLimited = globalLimit != Integer.MAX_VALUE;
    long now = ticker.read();
    this.orderSwitch = new BrowsingOrderSwitch(settings, cpuUtilisation, listener, now);
    if (settings.layout() == QueueSettings.Layout.SINGLE) {
      single =
          new ClassQueue(
              new ClassDefinition("all", 0, org.overloadcontrol.base.RequestKind.BROWSING, 1),
              settings.singleCapacity(),
              settings.longestMaxWaitNanos());
    } else {
      single = null;
      List<ClassDefinition> sorted = new ArrayList<>(classes);
      sorted.sort(Comparator.naturalOrder()); // highest rank first
      for (ClassDefinition c : sorted) {
        ClassQueue q = new ClassQueue(c, settings.capacity(c), settings.maxWaitNanos(c));
        byClass.put(c.name(), q);
        (q.transaction() ? transactionQueues : browsingQueues).add(q);
      }
    }
  }

  public QueueSettings settings() {
    return settings;
  }

  /** The permits of endpoint {@code name}, created with its configured limit on first use. */
  public EndpointPermits endpoint(String name) {
    EndpointPermits existing = endpoints.get(name);
    if (existing != null) {
      return existing;
    }
    return endpoints.computeIfAbsent(
        name,
        n -> {
          QueueSettings.EndpointQueueSettings e = settings.endpoint(n);
          int limit = e == null || e.permits() == 0 ? Integer.MAX_VALUE : e.permits();
          EndpointPermits permits = new EndpointPermits(n, limit, e != null && e.adaptive());
          if (e != null && e.adaptive()) {
            adaptive.put(n, new AdaptivePermitController(permits, e, listener, ticker.read()));
          }
          return permits;
        });
  }

  /**
   * The fast path: takes a permit for {@code endpoint} if nobody is waiting and one is free,
   * counting it in stripe {@code stripe} (the request's, see {@link StripedCounts}). When this
   * fails the request must {@link #enqueue}.
   */
  public boolean tryAcquire(EndpointPermits endpoint, int stripe) {
    return tryAcquire(endpoint, null, stripe);
  }

  /**
   * {@link #tryAcquire(EndpointPermits, int)} that also takes a permit of the class's share
   * of its concurrency group ({@code partition}, or null when it has none).
   */
  public boolean tryAcquire(
      EndpointPermits endpoint, ConcurrencyGroup.Partition partition, int stripe) {
    return waitingCount.get() == 0 && acquire(endpoint, partition, stripe);
  }

  private boolean acquire(
      EndpointPermits endpoint, ConcurrencyGroup.Partition partition, int stripe) {
    if (!acquireGlobal()) {
      return false;
    }
    if (!endpoint.tryAcquire(stripe, partition)) {
      releaseGlobal();
      return false;
    }
    return true;
  }

  private void releaseGlobal() {
    if (globalLimited) {
      globalInUse.decrementAndGet();
    }
  }

  private boolean acquireGlobal() {
    if (!globalLimited) {
      return true;
    }
    for (; ; ) {
      int current = globalInUse.get();
      if (current >= globalLimit) {
        return false;
      }
      // Concurrent acquirers may both see the last free permit; the CAS admits one.
      if (globalInUse.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /**
   * Puts a request that found no permit into its class's queue. The listener may be called
   * before this method returns (a permit was free after all, or came free meanwhile), on this
   * thread or another, so the adapter must have suspended the request before calling.
   *
   * @return the waiter, or null when the queue is full or the queues are closed (reject)
   */
  public Waiter enqueue(
      ClassDefinition requestClass,
      ConcurrencyGroup.Partition partition,
      EndpointPermits endpoint,
      Waiter.Listener waiterListener) {
    return enqueue(requestClass, partition, endpoint, 0L, waiterListener);
  }

  /**
   * {@link #enqueue(ClassDefinition, ConcurrencyGroup.Partition, EndpointPermits, Waiter.Listener)}
   * for a request of an admitted session when {@code sessionMaxWaitNanos} is above 0: it goes
   * before the other waiters of its class, browsing queues holding such requests are served
   * first, and it may wait for its share of the concurrency limit up to
   * {@code sessionMaxWaitNanos} instead of the share's own bound (session-aware admission:
   * refusing it now would lose the work already done for its session, so it gets the whole
   * time its target leaves). 0 for any other request.
   */
  public Waiter enqueue(
      ClassDefinition requestClass,
      ConcurrencyGroup.Partition partition,
      EndpointPermits endpoint,
      long sessionMaxWaitNanos,
      Waiter.Listener waiterListener) {
    boolean sessionPrecedence = sessionMaxWaitNanos > 0;
    ClassQueue q = single != null ? single : byClass.get(requestClass.name());
    if (q == null) {
      throw new IllegalStateException("no queue for class " + requestClass.name());
    }
    Waiter w;
    lock.lock();
    try {
      if (closed || q.full()) {
        return null;
      }
      long now = ticker.read();
      long maxWait = single != null ? settings.maxWaitNanos(requestClass) : q.maxWaitNanos;
      if (partition != null) {
        // Waiting for a share of a concurrency limit: past this, the request could not meet
        // its target any more, and serving it late would only delay the next one.
        // An admitted session's request keeps its longer bound whatever its class's execution
        // time: shortened too, it was refused mid-session in 4.8 % of the admitted sessions at
        // 4× capacity (0.3 % before), each a purchase lost where a late page loses nothing.
        long shareWait = partition.waitBoundNanos(partition.maxWaitNanos());
        if (sessionPrecedence) {
          shareWait = Math.max(shareWait, sessionMaxWaitNanos);
        }
        maxWait = Math.min(maxWait, shareWait);
      }
      w = new Waiter(partition, waiterListener, endpoint, q, now, now + maxWait, sessionPrecedence);
      q.add(w);
      if (partition != null) {
        partition.waiterAdded();
      }
      if (sessionPrecedence) {
        sessionWaitingCount.incrementAndGet();
      }
      endpoint.waiterAdded();
      waitingCount.incrementAndGet();
      orderSwitch.onWaiting(now, true);
    } finally {
      unlock();
    }
    w.expiryTimer = scheduler.schedule(() -> expire(w), w.deadlineNanos - w.enqueuedNanos);
    if (!w.waiting()) {
      w.cancelTimer(); // resumed before the timer was set
    }
    drain();
    return w;
  }

  /**
   * Returns a permit, counted in stripe {@code stripe} (the request's); if anybody waits, hands
   * free permits to the next waiters.
   */
  public void release(EndpointPermits endpoint, int stripe) {
    release(endpoint, null, stripe);
  }

  /**
   * Returns a permit taken with
   * {@link #tryAcquire(EndpointPermits, ConcurrencyGroup.Partition, int)}.
   */
  public void release(EndpointPermits endpoint, ConcurrencyGroup.Partition partition, int stripe) {
    endpoint.release(stripe, partition);
    releaseGlobal();
    if (waitingCount.get() > 0) {
      drain();
    }
  }

  /** Hands free permits to waiters, if any wait: after a concurrency limit rose. */
  public void wake() {
    if (waitingCount.get() > 0) {
      drain();
    }
  }

  /**
   * Resumes as many waiters as there are free permits, in LIFO-Pri order. Never waits for the
   * lock: a thread that finds it held leaves a request to drain, which the holder carries out
   * before it leaves (it reads the request after its unlock, and the requester wrote it before
   * finding the lock held, so one of the two drains). Waiting for it, the threads returning
   * permits convoyed behind each other: on a cold JVM whose cores a retry storm saturated, a
   * release waited up to a second for the lock, each hand-over of it to a parked thread
   * waiting for a core (the workload matrix, a 50 ms method on a WAR's container threads).
   */
  void drain() {
    drainRequested.set(true);
    while (drainRequested.get() && lock.tryLock()) {
      List<Waiter> resumed = null;
      try {
        drainRequested.set(false);
        long now = ticker.read();
        rollOrder(now);
        while (waitingCount.get() > 0 && acquireGlobal()) {
          Waiter w = select();
          if (w == null) {
            releaseGlobal();
            break;
          }
          leave(w, Waiter.RESUMED, now);
          if (resumed == null) {
            resumed = new ArrayList<>(2);
          }
          resumed.add(w);
        }
      } finally {
        lock.unlock();
      }
      if (resumed != null) {
        for (Waiter w : resumed) {
          w.cancelTimer();
          w.listener().resumed(w);
        }
      }
    }
  }

  /** Leaves the lock, and drains if a {@link #drain} found it held meanwhile. */
  private void unlock() {
    lock.unlock();
    if (drainRequested.get()) {
      drain();
    }
  }

  /** Chooses and removes the next waiter (its endpoint permit taken); caller holds the lock. */
  private Waiter select() {
    if (single != null) {
      return single.takeEligible(browsingLifo());
    }
    for (ClassQueue q : transactionQueues) {
      if (!q.isEmpty()) {
        Waiter w = q.takeEligible(false);
        if (w != null) {
          return w;
        }
      }
    }
    // Among browsing queues, those holding requests of admitted sessions first (session-aware
    // admission: an admitted session's browsing goes before a new session's), the one whose
    // such request is closest to its deadline: its expiry would be a refusal mid-session, which
    // is what session-aware admission exists to avoid (scored by utility × those requests, the
    // lowest-utility queue's expired, measured on the shop). Without any, LIFO-Pri's utility ×
    // length over all.
    ClassQueue best = null;
    long bestDeadline = Long.MAX_VALUE;
    for (ClassQueue q : browsingQueues) {
      if (q.sessionWaiters() == 0 || !q.hasEligible()) {
        continue;
      }
      long deadline = q.earliestSessionDeadline();
      if (best == null || deadline < bestDeadline) {
        best = q;
        bestDeadline = deadline;
      }
    }
    if (best != null) {
      return best.takeEligible(browsingLifo());
    }
    double bestScore = -1;
    for (ClassQueue q : browsingQueues) {
      if (q.isEmpty() || !q.hasEligible()) {
        continue;
      }
      double score = q.requestClass.utility() * q.size();
      if (score > bestScore) {
        best = q;
        bestScore = score;
      }
    }
    return best == null ? null : best.takeEligible(browsingLifo());
  }

  private boolean browsingLifo() {
    return switch (settings.order()) {
      case FIFO -> false;
      case LIFO -> true;
      case LIFO_AT_OVERLOAD -> orderSwitch.lifo();
    };
  }

  private void leave(Waiter w, int newState, long now) {
    w.state.set(newState);
    waitingCount.decrementAndGet();
    if (w.sessionPrecedence) {
      sessionWaitingCount.decrementAndGet();
    }
    w.endpoint().waiterRemoved();
    if (w.partition() != null) {
      if (newState == Waiter.CANCELLED) {
        w.partition().waiterRemoved();
      } else {
        w.partition().waiterRemoved(newState == Waiter.EXPIRED);
      }
    }
    orderSwitch.onLeave(now - w.enqueuedNanos);
    orderSwitch.onWaiting(now, waitingCount.get() > 0);
  }

  private void expire(Waiter w) {
    if (!removeIfWaiting(w, Waiter.EXPIRED)) {
      return;
    }
    w.listener().expired(w);
  }

  /**
   * Takes a waiting request out of its queue because it will not be served (the client left,
   * the container timed it out). Returns true if the caller now owns its outcome, false if it
   * had already left the queue (resumed or expired), in which case its owner answers it.
   */
  public boolean cancel(Waiter w) {
    if (!removeIfWaiting(w, Waiter.CANCELLED)) {
      return false;
    }
    w.cancelTimer();
    return true;
  }

  private boolean removeIfWaiting(Waiter w, int newState) {
    lock.lock();
    try {
      if (w.state.get() != Waiter.WAITING || !w.queue.remove(w)) {
        return false;
      }
      leave(w, newState, ticker.read());
      return true;
    } finally {
      unlock();
    }
  }

  /**
   * The periodic task: closes the order switch's windows and runs the adaptive permit
   * controllers, then resumes waiters if limits grew.
   */
  public void tick() {
    long now = ticker.read();
    lock.lock();
    try {
      rollOrder(now);
    } finally {
      unlock();
    }
    for (AdaptivePermitController c : adaptive.values()) {
      c.tick(now);
    }
    if (waitingCount.get() > 0) {
      drain();
    }
  }

  private void rollOrder(long now) {
    long oldest = Long.MAX_VALUE;
    if (waitingCount.get() > 0) {
      for (ClassQueue q : allQueues()) {
        oldest = Math.min(oldest, q.oldestEnqueuedNanos());
      }
    }
    orderSwitch.roll(now, waitingCount.get() > 0, oldest);
  }

  private List<ClassQueue> allQueues() {
    if (single != null) {
      return List.of(single);
    }
    List<ClassQueue> all = new ArrayList<>(transactionQueues);
    all.addAll(browsingQueues);
    return all;
  }

  /**
   * Closes the queues: every waiting request expires (its adapter answers 503) and later
   * arrivals that find no permit are refused.
   */
  public void shutdown() {
    List<Waiter> expired = new ArrayList<>();
    lock.lock();
    try {
      closed = true;
      long now = ticker.read();
      for (ClassQueue q : allQueues()) {
        for (Waiter w : q.clear()) {
          leave(w, Waiter.EXPIRED, now);
          expired.add(w);
        }
      }
    } finally {
      unlock();
    }
    for (Waiter w : expired) {
      w.cancelTimer();
      try {
        w.listener().expired(w);
      } catch (RuntimeException e) {
        // One adapter's trouble answering (a request its container has recycled) must not
        // leave the requests after it waiting forever.
        org.overloadcontrol.base.OverloadLog.get(WaitQueues.class)
            .debug("overload-control: a waiting request could not be expired", e);
      }
    }
  }

  /** Whether browsing queues are LIFO now. */
  public boolean lifo() {
    return browsingLifo();
  }

  /** Requests waiting in all queues. */
  public int waitingCount() {
    return waitingCount.get();
  }

  /** Requests of admitted sessions waiting in all queues. */
  public int sessionWaitingCount() {
    return sessionWaitingCount.get();
  }

  /**
   * Whether a request of an admitted session has waited longer than any other request of its
   * class may, or more than half the time it may itself (the shorter): its page will be late,
   * and the admitted sessions do not fit now. A shorter wait says nothing (at a small limit, a
   * request of somebody's session waits most of the time). Takes the lock only while such
   * requests wait.
   */
  public boolean sessionOverdue() {
    if (sessionWaitingCount.get() == 0) {
      return false;
    }
    lock.lock();
    try {
      long now = ticker.read();
      for (ClassQueue q : allQueues()) {
        if (q.sessionOverdue(now)) {
          return true;
        }
      }
      return false;
    } finally {
      unlock();
    }
  }

  /** Requests executing with an overall permit. */
  public int permitsInUse() {
    if (globalLimited) {
      return globalInUse.get();
    }
    int sum = 0;
    for (EndpointPermits e : endpoints.values()) {
      sum += e.inUse();
    }
    return sum;
  }

  /** The overall permit limit, or {@link Integer#MAX_VALUE} when unlimited. */
  public int permitLimit() {
    return globalLimit;
  }

  /** The length of the queue of class {@code name} (of the single queue with that layout). */
  public int queueLength(String className) {
    if (single != null) {
      return single.size();
    }
    ClassQueue q = byClass.get(className);
    return q == null ? 0 : q.size();
  }

  /** Every endpoint's permits seen so far. */
  public Collection<EndpointPermits> endpoints() {
    return List.copyOf(endpoints.values());
  }
}
