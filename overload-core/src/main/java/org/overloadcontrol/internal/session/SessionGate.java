package org.overloadcontrol.internal.session;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.base.SessionRole;

/**
 * Session-aware admission (Cherkasova &amp; Phaal, "Session-based admission control: a mechanism
 * for peak load management of commercial Web sites", IEEE Trans. Computers 51(6), 2002): the
 * unit admitted is the session, not the request. The first request of a new session is the one
 * that may be refused; a session once admitted is recognised by a signed cookie set on its
 * admission (or a configured header, or the container's session id), and its later requests go
 * to the concurrency limit as {@link SessionRole#ADMITTED}, ahead of new sessions' requests of
 * the same class in the wait queues.
 *
 * <p>How many: new sessions are admitted only while no request of an admitted session has
 * waited so long that its page will be late (then the admitted ones do not fit now, whatever
 * the estimate says; {@link org.overloadcontrol.internal.queue.WaitQueues#sessionOverdue}) and while
 * they leave room under the group's measured throughput ({@link SessionLoad}); a virtual-queue
 * token coming due admits its session all the same (the waiting room already metered it); a
 * full table refuses. An admitted session's request, once it waits, may wait longer than a new
 * session's ({@link SessionSettings#maxWaitNanos}).
 *
 * <p>States of a session: admitted (in the {@link SessionTable}) → completed (a request on a
 * completion path, or the application's call, completed), expired (idle, or past its
 * lifetime), or dropped (its first request was refused after all, by the limit's wait).
 */
public final class SessionGate {

  /**
   * The answer to one request: refused (a new session with no room, {@code reason} says why),
   * or on its way as {@code role} of the session {@code key}, with a cookie value to set for a
   * session admitted now; {@code completes} when its path completes its session.
   */
  public record Answer(
      boolean rejected,
      RejectionReason reason,
      String setCookie,
      SessionRole role,
      String key,
      boolean completes) {
    static final Answer PASS = new Answer(false, null, null, SessionRole.NONE, null, false);
  }

  private final SessionSettings settings;
  private final SessionTable table;
  private final SessionCookie cookies;
  private final CookieKeys keys;
  private final Ticker ticker;

  /** Whether a request of an admitted session has waited so long that its page will be late. */
  private final BooleanSupplier sessionOverdue;

  private final ConcurrentHashMap<ConcurrencyGroup, SessionLoad> loads = new ConcurrentHashMap<>();
  private final LongAdder admitted = new LongAdder();
  private final LongAdder newRefused = new LongAdder();
  private final LongAdder midSessionRefused = new LongAdder();
  private final LongAdder completed = new LongAdder();

  /** Distinct admitted sessions seen in the current window, and in the last one. */
  private final LongAdder activeNow = new LongAdder();

  /**
   * Guards the window's counts between a session leaving (a request thread) and the window
   * closing (the timer). A lock, not a monitor: a request on a virtual thread that found the
   * monitor taken would pin its carrier thread on Java 21 to 23.
   */
  private final ReentrantLock windowLock = new ReentrantLock();

  private volatile int activeBefore;

  /** The window's number, stamped on each session seen in it. */
  private volatile long window;

  private volatile long windowStart;

  /**
   * @param sessionOverdue whether a request of an admitted session has waited so long, now,
   *     that its page will be late (the wait queues')
   */
  public SessionGate(
      SessionSettings settings,
      CookieKeys keys,
      SecureRandom random,
      Ticker ticker,
      BooleanSupplier sessionOverdue) {
    this(settings, keys, random, ticker, sessionOverdue, null);
  }

  /**
   * A gate that takes over the sessions of {@code predecessor} (a reload): the same cookie keys
   * and, when the table's limits did not change, the same table, so that a session admitted
   * before the reload is still one after it.
   *
   * @param predecessor the gate of the configuration this one replaces, or null
   */
  public SessionGate(
      SessionSettings settings,
      CookieKeys keys,
      SecureRandom random,
      Ticker ticker,
      BooleanSupplier sessionOverdue,
      SessionGate predecessor) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sessionOverdue = Objects.requireNonNull(sessionOverdue, "sessionOverdue");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.keys = predecessor != null ? predecessor.keys : keys;
    this.cookies = new SessionCookie(this.keys, random);
    this.table =
        predecessor != null && sameTable(predecessor.settings, settings)
            ? predecessor.table
            : new SessionTable(
                ticker,
                settings.idleTimeoutNanos(),
                settings.maxLifetimeNanos(),
                settings.maxSessions());
    this.windowStart = ticker.read();
  }

  private static boolean sameTable(SessionSettings a, SessionSettings b) {
    return a.idleTimeoutNanos() == b.idleTimeoutNanos()
        && a.maxLifetimeNanos() == b.maxLifetimeNanos()
        && a.maxSessions() == b.maxSessions();
  }

  public SessionSettings settings() {
    return settings;
  }

  /**
   * Decides for a request before its admission. A request at an endpoint without a concurrency
   * limit ({@code group} null) only keeps its session alive.
   */
  public Answer arrive(ConcurrencyGroup group, SessionVisit visit) {
    SessionTable.Entry[] entry = new SessionTable.Entry[1];
    String known = admittedKey(visit, entry);
    if (known != null) {
      seen(entry[0]);
    }
    if (group == null) {
      return Answer.PASS;
    }
    boolean completes = settings.completes(visit.path());
    SessionLoad load = load(group);
    boolean saturated = group.inFlight() >= group.limit();
    if (saturated) {
      load.saturated();
    }
    if (known != null) {
      load.sessionArrival();
      return new Answer(false, null, null, SessionRole.ADMITTED, known, completes);
    }
    long now = ticker.read();
    if (!visit.dueQueueToken()
        && (sessionOverdue.getAsBoolean()
            || !load.roomForNew(activeSessions(now), saturated, settings.headroom()))) {
      newRefused.increment();
      return new Answer(true, RejectionReason.NEW_SESSION, null, SessionRole.NONE, null, false);
    }
    String key;
    String cookie = null;
    if (settings.header() != null && visit.header() != null) {
      key = "h:" + visit.header();
    } else if (visit.containerSession() != null) {
      key = "s:" + visit.containerSession();
    } else {
      String id = cookies.newId();
      key = "c:" + id;
      cookie = cookies.value(id);
    }
    SessionTable.Entry admittedEntry = table.admit(key, now);
    if (admittedEntry == null) {
      newRefused.increment();
      return new Answer(true, RejectionReason.SESSIONS_FULL, null, SessionRole.NONE, null, false);
    }
    seen(admittedEntry);
    admitted.increment();
    return new Answer(false, null, cookie, SessionRole.NEW, key, completes);
  }

  /**
   * The table key of the visit's admitted session, or null; a hit restarts its idle time and
   * leaves its entry in {@code found[0]}.
   */
  private String admittedKey(SessionVisit visit, SessionTable.Entry[] found) {
    String id = cookies.verify(visit.cookie());
    String[] keys = {
      id == null ? null : "c:" + id,
      visit.header() == null ? null : "h:" + visit.header(),
      visit.containerSession() == null ? null : "s:" + visit.containerSession()
    };
    for (String key : keys) {
      SessionTable.Entry e = table.touch(key);
      if (e != null) {
        found[0] = e;
        return key;
      }
    }
    return null;
  }

  private void seen(SessionTable.Entry e) {
    if (e.seenIn(window)) {
      activeNow.increment();
    }
  }

  /** A session that ended no longer counts as active. */
  private void left(SessionTable.Entry e) {
    if (e == null) {
      return;
    }
    windowLock.lock();
    try {
      if (e.seenWindow.get() == window) {
        activeNow.decrement();
      }
      // Whether it was seen in the last window is not kept: it probably was.
      if (activeBefore > 0) {
        activeBefore--;
      }
    } finally {
      windowLock.unlock();
    }
  }

  /**
   * Sessions active now, over a sliding window: those seen in this window, or those of the last
   * one counted for the share of it that still lies within one window of now, whichever is
   * more. Counting the whole of the last window's sessions for the whole of this one shut the
   * door for a window after each full one; a new session's first page being half the shop's
   * requests, the shop then went idle (measured: seconds with a quarter of its capacity
   * served while new sessions were refused).
   */
  private int activeSessions(long now) {
    double left = 1.0 - Math.min(1.0, (double) (now - windowStart) / settings.windowNanos());
    return (int) Math.max(Math.round(activeBefore * left), activeNow.sum());
  }

  private SessionLoad load(ConcurrencyGroup group) {
    SessionLoad load = loads.get(group);
    return load != null ? load : loads.computeIfAbsent(group, g -> new SessionLoad());
  }

  /**
   * Takes a request's outcome, once, after the engine settled it: the {@link Answer#role},
   * {@link Answer#key} and completion its {@link #arrive} gave (or {@code completes} when the
   * application marked it since).
   */
  public void settled(
      ConcurrencyGroup group, SessionRole role, String key, boolean completes, Outcome outcome) {
    if (group != null && outcome.executed()) {
      SessionLoad load = load(group);
      load.completion();
      if (role == SessionRole.NEW) {
        // A first request counts in its session's rate once it ran: most first requests that
        // are refused after all would otherwise inflate the rate of the sessions that remain.
        load.sessionArrival();
      }
    }
    if (role == SessionRole.NONE) {
      return;
    }
    if (outcome == Outcome.REJECTED || outcome == Outcome.EXPIRED) {
      if (role == SessionRole.ADMITTED) {
        midSessionRefused.increment();
      } else {
        // Its first request did not get through the limit: the session never started.
        left(table.remove(key));
        admitted.decrement();
        newRefused.increment();
      }
    } else if (outcome == Outcome.COMPLETED && completes) {
      left(table.remove(key));
      completed.increment();
    }
  }

  /** The periodic task: closes the window when it is due, sweeps expired sessions. */
  public void tick(long now) {
    windowLock.lock();
    try {
      table.cleanUp();
      long elapsed = now - windowStart;
      if (elapsed < settings.windowNanos()) {
        return;
      }
      windowStart = now;
      int active = (int) Math.max(0, activeNow.sumThenReset());
      window++;
      activeBefore = active;
      for (SessionLoad load : loads.values()) {
        load.closeWindow(elapsed / 1e9, active);
      }
    } finally {
      windowLock.unlock();
    }
  }

  /** Sessions admitted now. */
  public int admittedSessions() {
    return table.size();
  }

  /** Sessions admitted since start (a session whose first request was refused after all not). */
  public long admittedCount() {
    return admitted.sum();
  }

  /** New sessions refused since start. */
  public long newSessionsRefusedCount() {
    return newRefused.sum();
  }

  /** Requests of admitted sessions refused or expired since start: keep it near zero. */
  public long midSessionRefusalCount() {
    return midSessionRefused.sum();
  }

  /** Sessions completed since start (a completion path, or the application said so). */
  public long completedCount() {
    return completed.sum();
  }

  /** Entries the table holds (a test of its memory bound). */
  long tableEntries() {
    return table.entries();
  }
}
