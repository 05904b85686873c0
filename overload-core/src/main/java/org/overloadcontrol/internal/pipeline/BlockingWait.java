package org.overloadcontrol.internal.pipeline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * The fallback for a chain that cannot go async ({@code queue.nonAsync=block}): the request
 * waits in its queue like any other, but on its container thread, until it is resumed or
 * expires; the wait is bounded by the class's max wait. It holds a thread, which is why async
 * support is the recommended setting.
 */
final class BlockingWait implements Waiter.Listener {

  private final CountDownLatch done = new CountDownLatch(1);
  private volatile boolean resumed;

  @Override
  public void resumed(Waiter waiter) {
    resumed = true;
    done.countDown();
  }

  @Override
  public void expired(Waiter waiter) {
    done.countDown();
  }

  /**
   * Waits for the outcome of the wait. Returns true if a permit is held for the request (run
   * it), false if it expired or was abandoned (answer 503, outcome EXPIRED).
   */
  boolean await(OverloadEngine engine, RequestTag tag) {
    long bound =
        tag.waiter() == null ? 0L : tag.waiter().deadlineNanos() - tag.waiter().enqueuedNanos();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          // A margin over the deadline: the engine's timer normally decides first.
          if (done.await(bound + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS)) {
            return resumed;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
        if (engine.abandon(tag)) {
          return false;
        }
        // Not abandoned: it is being resumed or expired right now; the latch falls shortly.
        bound = 0L;
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
