package org.overloadcontrol.sample;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The shop's simulated back end: a bounded pool of "database connections". A page takes a
 * connection and holds it for its service time, during which the request's own thread sleeps
 * (the paper's back-end wait, Singhmar et al. 2004 §3.2.1). The pool, not the machine's CPU,
 * fixes the shop's capacity: about {@code connections / mean service time} pages per second.
 *
 * <p>The semaphore is fair, so pages get connections in the order they asked: whatever order
 * requests are served in is then overload control's doing, not the pool's.
 *
 * <p>This is the application, not the library: sleeping here is the simulated work.
 */
public final class Database {

  /** How the simulated query passes its time; tests pass one that does not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /** No connection came free within the allowed wait. */
  public static final class BusyException extends Exception {
    private static final long serialVersionUID = 1L;

    BusyException(Duration waited) {
      super("no database connection free within " + waited.toMillis() + " ms");
    }
  }

  private static final Sleeper THREAD_SLEEP = d -> TimeUnit.NANOSECONDS.sleep(d.toNanos());

  private final Semaphore connections;
  private final int connectionCount;
  private final Duration maxWait;
  private final Sleeper sleeper;

  /** A pool of {@code connectionCount} connections that sleeps for real. */
  public Database(int connectionCount, Duration maxWait) {
    this(connectionCount, maxWait, THREAD_SLEEP);
  }

  public Database(int connectionCount, Duration maxWait, Sleeper sleeper) {
    if (connectionCount < 1) {
      throw new IllegalArgumentException("connectionCount must be >= 1, was " + connectionCount);
    }
    this.connections = new Semaphore(connectionCount, true);
    this.connectionCount = connectionCount;
    this.maxWait = maxWait;
    this.sleeper = sleeper;
  }

  /**
   * Holds one connection for {@code serviceTime}. A zero service time takes no connection.
   *
   * @throws BusyException if no connection came free within the pool's maximum wait
   * @throws InterruptedException if the thread was interrupted while waiting or working
   */
  public void query(Duration serviceTime) throws BusyException, InterruptedException {
    if (serviceTime.isZero() || serviceTime.isNegative()) {
      return;
    }
    if (!connections.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new BusyException(maxWait);
    }
    try {
      sleeper.sleep(serviceTime);
    } finally {
      connections.release();
    }
  }

  /** The pool's size. */
  public int connectionCount() {
    return connectionCount;
  }

  /** Connections held right now (for status pages and tests; a snapshot). */
  public int inUseCount() {
    return connectionCount - connections.availablePermits();
  }

  /** Requests waiting for a connection right now (an estimate, as the semaphore gives it). */
  public int waitingCount() {
    return connections.getQueueLength();
  }
}
