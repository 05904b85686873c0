package org.overloadcontrol.internal.engine;

import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests under a concurrency limit whose application gave the container's thread back
 * with the response not done (a servlet's async cycle, a Jetty handler that completes its
 * callback later): a request still among them {@value #LAPSE_TARGETS} times its class's target
 * after its execution began gives its permit back, and the limit takes that moment as its
 * sample. Its outcome is still settled once, when the response ends.
 *
 * <p>Why. A permit bounds the requests that execute at once on a resource, and the limit learns
 * from their execution times. A request that runs on no thread and has missed its target twice
 * over is most often one that nothing will finish before a timeout (an application's bug: an
 * async cycle never completed, a remote call without a deadline). Holding its permit until then
 * takes the limit's room from every other request of the group; and Tomcat ends such requests
 * in bursts, once a second, so one window reads a tenth of its samples many targets long while
 * the rest run within a fiftieth of theirs, and is cut as if the resource queued. In the chaos
 * mix under the defaults (3 % of 1,250 requests a second hanging until the async timeout of
 * 1 s, 48 container threads) such requests held 40–55 permits of a ceiling of 46, and the limit
 * fell to 1 (docs/results.md, "Chaos at 100,000 requests"). Lapsed at two targets, they hold a
 * little over half as many, and their samples come as smoothly as they were admitted.
 *
 * <p>What it costs. A lapsed request still runs, outside the limit: on a resource that stalled
 * for every request, the lapsed requests add to the requests it admits. Their samples, at two
 * targets or more, read as misses and cut the limit, so the requests let in over the limit are
 * at most what the limit admitted in the last two targets; a request holding a thread never
 * lapses, so a container's threads stay bounded by the limit's ceiling.
 *
 * <p>Ordering. The adapter's thread marks the request ({@link RequestTag#detached}, volatile)
 * before adding it here; the outcome is claimed (its CAS) before {@link OverloadEngine#endSettle}
 * reads the mark. So either the completion sees the mark and takes the permit atomically, racing
 * the lapse fairly, or it claimed the outcome before the mark was set, and the lapse, which
 * checks the outcome first, leaves the request alone.
 */
final class DetachedRequests {

  /** The execution time, in its class's targets, after which a detached request's permit lapses. */
  static final int LAPSE_TARGETS = 2;

  private final Set<RequestTag> tags = ConcurrentHashMap.newKeySet();

  /**
   * The application returned the request's thread with its response not done. Only a request
   * holding a concurrency limit's permit is kept.
   */
  void add(RequestTag tag) {
    ExecutionPermit held = tag.permit();
    if (held == null || held.partition == null || tag.detached) {
      return;
    }
    tag.detached = true;
    tags.add(tag);
    if (tag.outcome() != null) {
      // Settled on another thread before the mark was seen: nothing will remove it.
      tags.remove(tag);
    }
  }

  /** A detached request's outcome was settled ({@link OverloadEngine#endSettle}). */
  void settled(RequestTag tag) {
    tags.remove(tag);
  }

  /** The detached requests not settled yet. */
  int size() {
    return tags.size();
  }

  /**
   * Gives back the permits of the detached requests that have executed {@value #LAPSE_TARGETS}
   * targets or more by {@code now} (the periodic task, before the groups' windows close): the
   * sampled ones are recorded as executions of that length.
   */
  void lapse(long now) {
    for (Iterator<RequestTag> it = tags.iterator(); it.hasNext(); ) {
      RequestTag tag = it.next();
      ExecutionPermit held = tag.permit();
      if (tag.outcome() != null || held == null) {
        it.remove();
        continue;
      }
      long response = tag.responseNanos(now);
      long execution = response - tag.waitedNanos();
      if (execution < LAPSE_TARGETS * held.partition.targetNanos()) {
        continue;
      }
      it.remove();
      ExecutionPermit taken = tag.takePermit();
      if (taken == null) {
        continue; // its completion took it meanwhile
      }
      if (tag.sampled) {
        taken.recordSample(execution, response, tag.handOverNanos(), now, tag.stripe);
      }
      taken.release(tag.stripe);
    }
  }
}
