package org.overloadcontrol.internal.session;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.base.Ticker;

/**
 * The admitted sessions: a Caffeine cache on the engine's ticker in which an entry expires
 * after {@code idleTimeout} without a request or {@code maxLifetime} after its admission,
 * whichever comes first.
 *
 * <p>Bounded by refusal, not eviction: Cherkasova &amp; Phaal's point is that a session once
 * admitted finishes, so evicting an old session to make room for a new one would be exactly
 * the mid-session failure the table exists to prevent. {@link #admit} reserves one of
 * {@code maxSessions} places with a CAS before inserting and the removal listener gives it back;
 * when every place is taken, expired entries are swept once and the admission fails if none
 * came free. The cache has no size bound of its own: the reservation count is never below its
 * size, so it cannot grow past {@code maxSessions}.
 *
 * <p>Maintenance and the removal listener run on the calling thread (no executor), so tests on
 * a fake ticker see an expired session leave at once.
 */
final class SessionTable {

  private final Cache<String, Entry> admitted;
  private final AtomicInteger reserved = new AtomicInteger();
  private final int maxSessions;

  SessionTable(Ticker ticker, long idleNanos, long lifetimeNanos, int maxSessions) {
    this.maxSessions = maxSessions;
    this.admitted =
        Caffeine.newBuilder()
            .ticker(ticker::read)
            .executor(Runnable::run)
            .expireAfter(
                new Expiry<String, Entry>() {
                  @Override
                  public long expireAfterCreate(String key, Entry e, long now) {
                    return Math.min(idleNanos, lifetimeNanos);
                  }

                  @Override
                  public long expireAfterUpdate(String key, Entry e, long now, long current) {
                    return current;
                  }

                  @Override
                  public long expireAfterRead(String key, Entry e, long now, long current) {
                    return Math.max(0L, Math.min(idleNanos, e.createdNanos + lifetimeNanos - now));
                  }
                })
            .removalListener(
                (String key, Entry e, com.github.benmanes.caffeine.cache.RemovalCause cause) ->
                    reserved.decrementAndGet())
            .build();
  }

  /** An admitted session: when it was admitted, and the last window it was seen in. */
  static final class Entry {
    final long createdNanos;
    final java.util.concurrent.atomic.AtomicLong seenWindow =
        new java.util.concurrent.atomic.AtomicLong(-1);

    Entry(long createdNanos) {
      this.createdNanos = createdNanos;
    }

    /** Marks it seen in {@code window}; true for its first time in that window. */
    boolean seenIn(long window) {
      long last = seenWindow.get();
      return last != window && seenWindow.compareAndSet(last, window);
    }
  }

  /** The admitted session {@code key}, or null; a hit is activity (its idle time restarts). */
  Entry touch(String key) {
    return key == null ? null : admitted.getIfPresent(key);
  }

  /**
   * Admits session {@code key} at {@code now}: its entry, or null when the table is full.
   * A key already present stays as it was (and counts as admitted).
   */
  Entry admit(String key, long now) {
    if (!reserve()) {
      admitted.cleanUp();
      if (!reserve()) {
        return null;
      }
    }
    Entry fresh = new Entry(now);
    Entry existing = admitted.asMap().putIfAbsent(key, fresh);
    if (existing != null) {
      reserved.decrementAndGet();
      return existing;
    }
    return fresh;
  }

  private boolean reserve() {
    int n;
    do {
      n = reserved.get();
      if (n >= maxSessions) {
        return false;
      }
    } while (!reserved.compareAndSet(n, n + 1));
    return true;
  }

  /** Ends session {@code key} (completed, or its first request was refused after all). */
  Entry remove(String key) {
    return key == null ? null : admitted.asMap().remove(key);
  }

  /** Admitted sessions now (expired ones leave at the next maintenance). */
  int size() {
    return Math.max(0, reserved.get());
  }

  /** Sweeps expired sessions now. */
  void cleanUp() {
    admitted.cleanUp();
  }

  /** The entries the cache itself holds (for tests of the bound). */
  long entries() {
    return admitted.estimatedSize();
  }
}
