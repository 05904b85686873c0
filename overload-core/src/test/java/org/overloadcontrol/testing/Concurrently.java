package org.overloadcontrol.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a step many times on several threads that start together, for the concurrency tests:
 * returns when every thread is done, and fails with the first error any thread threw (an
 * assertion inside a worker thread would otherwise be lost with the thread).
 */
public final class Concurrently {

  private Concurrently() {}

  /** Runs {@code step} {@code iterations} times on each of {@code threads} threads. */
  public static void run(int threads, int iterations, Runnable step) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < iterations; i++) {
                    step.run();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      w.start();
      workers.add(w);
    }
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a worker thread failed", failure.get());
    }
  }
}
