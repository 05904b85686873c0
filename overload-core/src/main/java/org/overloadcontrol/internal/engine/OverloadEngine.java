package org.overloadcontrol.internal.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.StripedCounts;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.base.SessionRole;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.degrade.QualityController;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.internal.session.CookieKeys;
import org.overloadcontrol.internal.session.SessionGate;
import org.overloadcontrol.internal.session.SessionSettings;
import org.overloadcontrol.internal.session.SessionVisit;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.Permit;
import org.overloadcontrol.queue.QueueListener;

/**
 * The container-free core that every adapter drives: route a request to its endpoint and class
 * ({@link #routes()}), tag it, decide its admission, queue it for an execution permit, and take
 * its outcome.
 *
 * <pre>
 *   EndpointClass route = engine.routes().route(servletName, attributes);
 *   RequestTag tag = engine.tag(route, arrivalNanos);
 *   switch (engine.arrive(tag)) {
 *     case ADMIT  -&gt; run it
 *     case WAIT   -&gt; suspend it, then engine.enqueue(tag, listener): the listener resumes it
 *                   when a permit is free, or expires it (503) at its deadline
 *     case REJECT -&gt; 503 + Retry-After
 *   }
 *   engine.settle(tag, outcome, bytes);            // exactly once, when the response is done
 * </pre>
 *
 * <p>Hot path: a map look-up for the endpoint and class (cached when no rule needs the request),
 * one compare-and-set on the class's token bucket, with queues configured one or two CAS on the
 * permit counters, and on completion a wait-free histogram record and an atomic increment. No
 * lock is shared by requests that do not wait; the controller round runs on the request thread
 * that makes it due (see {@link org.overloadcontrol.internal.admission.EndpointAdmissionController}).
 */
public final class OverloadEngine {

  private final OverloadConfig config;
  private final Ticker ticker;
  private final AdmissionListener listener;
  private final WaitQueues queues;
  private final QueueSettings queueSettings;
  private final DegradeSettings degradeSettings;
  private final QualityListener qualityListener;

  /** The periodic task (windows, periods, expiries), started when anything needs it. */
  private final PeriodicTask periodic;

  private final int rejectionStatus;

  /** Set by {@link #shutdown}: a waiter that expires from then on was refused for the stop. */
  private volatile boolean stopped;

  /** Running requests on no thread, whose permits lapse after a while ({@link #detached}). */
  private final DetachedRequests detachedRequests = new DetachedRequests();

  private final AdmissionSettings admissionSettings;

  /** Builds each endpoint's admission algorithm. */
  private final AdmissionFactory admissions;

  private final ConcurrentHashMap<String, ControlledEndpoint> endpoints = new ConcurrentHashMap<>();

  /** Session-aware admission, or null when {@code sessions.enabled} is false. */
  private final SessionGate sessions;

  /** Where requests go: probe paths, endpoints and classes. */
  private final Routes routes;

  /**
   * The engine this one replaced at a reload, whose learned state (limits, rates, sessions)
   * this one starts from where the same group, endpoint and class still exist; null at start.
   * Cleared once built, so that a chain of reloads does not keep every old engine reachable.
   */
  private volatile OverloadEngine predecessor;

  /** A {@link RequestTag#taggedNanos()} that says the ticker was not read at tagging. */
  private static final long NOT_READ = RequestTag.NOT_READ;

  /** An engine without wait queues or timers (for admission control alone, and tests). */
  public OverloadEngine(OverloadConfig config, Ticker ticker, AdmissionListener listener) {
    this(builder(config).ticker(ticker).admissionListener(listener));
  }

  private OverloadEngine(Builder b) {
    this.config = Objects.requireNonNull(b.config, "config");
    this.ticker = Objects.requireNonNull(b.ticker, "ticker");
    this.listener = LimitLog.around(b.admissionListener);
    this.routes = new Routes(config, b.frameworkRoutes, this::endpoint);
    this.queueSettings = b.queue != null ? b.queue : QueueSettings.from(config);
    this.degradeSettings = b.degrade != null ? b.degrade : DegradeSettings.from(config);
    this.qualityListener = b.qualityListener;
    if ((queueSettings.enabled() || degradeSettings.enabled()) && b.scheduler == null) {
      throw new IllegalStateException(
          "wait queues (queue.*) or degradation (degrade.*) are"
              + " configured but the adapter gave the engine no scheduler");
    }
    this.admissionSettings = b.admission != null ? b.admission : AdmissionSettings.from(config);
    // Requests over a concurrency limit wait in the queues, whose deadlines need timers, and a
    // queue threshold counts the queues' permits: an engine built without a scheduler
    // (admission alone, tests) admits by rate everywhere.
    boolean concurrency = admissionSettings.anyCountsPermits() && b.scheduler != null;
    this.queues =
        queueSettings.enabled() || concurrency
            ? new WaitQueues(
                queueSettings,
                config.classes().values(),
                ticker,
                b.scheduler,
                b.cpuUtilisation,
                b.queueListener)
            : null;
    this.admissions =
        new AdmissionFactory(
            config,
            ticker,
            b.cpu,
            listener,
            queues,
            queueSettings,
            degradeSettings,
            admissionSettings,
            qualityListener);
    SessionSettings sessionSettings =
        b.sessions != null ? b.sessions : SessionSettings.from(config.section("sessions"));
    this.sessions =
        sessionSettings.enabled()
            ? new SessionGate(
                sessionSettings,
                b.sessionKeys != null
                    ? b.sessionKeys
                    : CookieKeys.random(new java.security.SecureRandom()),
                new java.security.SecureRandom(),
                ticker,
                queues == null ? () -> false : queues::sessionOverdue,
                b.predecessor == null ? null : b.predecessor.sessions)
            : null;
    this.predecessor = b.predecessor;
    this.rejectionStatus =
        config.rejectionStatus() != 0
            ? config.rejectionStatus()
            : b.closesConnectionAfter503
                ? Rejection.TOO_MANY_REQUESTS
                : Rejection.SERVICE_UNAVAILABLE;
    this.periodic =
        new PeriodicTask(
            ticker,
            b.machineCpuLoad,
            admissions.groups.values(),
            endpoints.values(),
            queues,
            sessions,
            detachedRequests);
    if (queues != null || degradeSettings.enabled()) {
      periodic.start(b.scheduler);
    }
  }

  /**
   * The status of a refusal for {@code reason}: the {@code rejectionStatus} key's, or for {@code
   * auto} 429 where the adapter's container closes the connection after every 503 (a client that
   * re-sends at once then waits for a new connection per attempt), else 503; and 503 for a
   * request refused because the engine stopped, since a stopping server is unavailable and its
   * client is better off on a new connection.
   */
  public int rejectionStatus(RejectionReason reason) {
    return reason == RejectionReason.SHUTDOWN ? Rejection.SERVICE_UNAVAILABLE : rejectionStatus;
  }

  /**
   * Whether refusals are 429 because {@code rejectionStatus} is {@code auto} and the adapter's
   * container closes the connection after a 503: what an adapter says at start, since README and
   * most guides say 503.
   */
  public boolean answers429ForTheContainer() {
    return config.rejectionStatus() == 0 && rejectionStatus == Rejection.TOO_MANY_REQUESTS;
  }

  /** A builder for an engine over {@code config}. */
  public static Builder builder(OverloadConfig config) {
    return new Builder(config);
  }

  public OverloadConfig config() {
    return config;
  }

  public Ticker ticker() {
    return ticker;
  }

  /** Where this engine's requests go: probe paths, endpoints and classes. */
  public Routes routes() {
    return routes;
  }

  /** The wait queues, or null when none are configured. */
  public WaitQueues queues() {
    return queues;
  }

  public QueueSettings queueSettings() {
    return queueSettings;
  }

  /** Session-aware admission, or null when sessions are off. */
  public SessionGate sessions() {
    return sessions;
  }

  /**
   * Session-aware admission for a tagged request, before {@link #arrive}: marks its session, or
   * refuses it as a new session with no room (answer 503, then complete with
   * {@link Outcome#REJECTED}). The answer may carry a cookie value to set.
   */
  public SessionGate.Answer admitSession(RequestTag tag, SessionVisit visit) {
    SessionGate.Answer answer = sessions.arrive(tag.route().endpoint().concurrencyGroup(), visit);
    if (answer.rejected()) {
      tag.decide(
          Decision.REJECT,
          Math.max(config.retryAfterMinNanos(), sessions.settings().windowNanos()),
          answer.reason());
    } else {
      tag.session(answer.role(), answer.key());
      if (answer.completes()) {
        tag.completeSession();
      }
    }
    return answer;
  }

  /** The endpoint named {@code name}, created with its configured settings on first use. */
  public ControlledEndpoint endpoint(String name) {
    ControlledEndpoint existing = endpoints.get(name);
    if (existing != null) {
      return existing;
    }
    return endpoints.computeIfAbsent(name, this::createEndpoint);
  }

  /**
   * Creates the endpoints the configuration names before their first request does. Creating the
   * first one loads and initialises the admission's classes: on a cold JVM, with a WAR's 200
   * threads arriving at once on saturated cores, the first requests waited 0.7 s for it, and
   * the backlog that left started a retry storm the unguarded WAR never had (the workload
   * matrix).
   */
  public void createConfiguredEndpoints() {
    for (String name : config.endpoints().keySet()) {
      endpoint(name);
    }
  }

  private ControlledEndpoint createEndpoint(String name) {
    OverloadEngine before = predecessor;
    return before == null
        ? admissions.endpoint(name, null, null)
        : admissions.endpoint(name, before.admissions, before.endpoints.get(name));
  }

  /**
   * Creates now, from the replaced engine's state, each endpoint it had seen that this
   * configuration still has (configured here, or never configured: a servlet's own endpoint),
   * then lets the replaced engine go. An endpoint the new configuration removed is not
   * carried: its requests finish in the replaced engine.
   */
  private void takeOver() {
    OverloadEngine before = predecessor;
    if (before == null) {
      return;
    }
    for (String name : before.endpoints.keySet()) {
      boolean removed =
          before.config.endpoints().containsKey(name) && !config.endpoints().containsKey(name);
      if (!removed) {
        endpoint(name);
      }
    }
    predecessor = null;
  }

  /** The concurrency groups created so far. */
  public List<ConcurrencyGroup> concurrencyGroups() {
    return new ArrayList<>(admissions.groups.values());
  }

  /**
   * The current quality of {@code endpoint} in [0, 1], for code that has no request at hand (a
   * service class); 1 when the endpoint is not degradable or has seen no request yet. A
   * request's own quality is fixed when it is admitted: read it from its
   * {@link org.overloadcontrol.OverloadContext#quality()} when you can.
   */
  public double quality(String endpoint) {
    ControlledEndpoint e = endpoints.get(endpoint);
    return e == null ? 1.0 : e.quality();
  }

  /** The degradation settings: which endpoints degrade and how. */
  public DegradeSettings degradeSettings() {
    return degradeSettings;
  }

  /** Every endpoint that has seen a request. */
  public List<ControlledEndpoint> endpoints() {
    return new ArrayList<>(endpoints.values());
  }

  /** Tags a request that arrived at {@code arrivalNanos} on this engine's ticker. */
  public RequestTag tag(EndpointClass route, long arrivalNanos) {
    return tag(route, arrivalNanos, NOT_READ);
  }

  /**
   * Tags a request that arrived at {@code arrivalNanos}, the ticker having read
   * {@code nowNanos} just now: {@link #arrive} takes its first decision at that reading
   * instead of reading the clock again (a refusal is still decided on a fresh reading).
   */
  public RequestTag tag(EndpointClass route, long arrivalNanos, long nowNanos) {
    int stripe = StripedCounts.currentStripe();
    // The arrival's number in its stripe, which the count returns anyway, draws the sample:
    // no random number generator's per-thread state to touch, cold on a thread of a pool.
    boolean sampled = route.p90.drawSample(route.countArrival(stripe), stripe);
    return new RequestTag(route, arrivalNanos, nowNanos, stripe, sampled);
  }

  /**
   * Decides what to do with a tagged request: admission by its limiter (the algorithm {@link
   * AdmissionFactory} chose), which a concurrency limit answers with the request's execution
   * permit or a wait for one; behind any other limiter, with wait queues, the endpoint's
   * execution permit or a wait.
   */
  public Decision arrive(RequestTag tag) {
    long tagged = tag.taggedNanos();
    long now = tagged != NOT_READ ? tagged : ticker.read();
    EndpointClass route = tag.route();
    Limiter limiter = route.limiter;
    Permit admitted = limiter.acquire(now, tag.stripe);
    if (admitted == null) {
      // A fresh reading, as the limiter refuses on one: the tag's may be a preempted thread's.
      tag.decide(
          Decision.REJECT,
          Math.max(
              config.retryAfterMinNanos(),
              Math.min(config.retryAfterMaxNanos(), limiter.retryAfterNanos(ticker.read()))),
          limiter.rejectionReason());
      return Decision.REJECT;
    }
    ExecutionPermit execution = route.execution;
    if (admitted != Unreported.PERMIT) {
      if (admitted == execution) {
        // The limiter took the execution permit itself (a concurrency limit).
        return admit(tag, execution);
      }
      if (admitted == ExecutionPermit.WAIT) {
        return waitFor(tag, execution);
      }
      tag.admitted(admitted);
    }
    if (execution == null) {
      tag.captureQuality();
      tag.decide(Decision.ADMIT, 0L, null);
      return Decision.ADMIT;
    }
    // The endpoint's execution permit (queue.*), behind a limiter that does not take one.
    if (execution.tryAcquire(tag.stripe)) {
      return admit(tag, execution);
    }
    return waitFor(tag, execution);
  }

  /** Admits a request that holds {@code execution}. */
  private static Decision admit(RequestTag tag, ExecutionPermit execution) {
    tag.holdPermit(execution);
    tag.captureQuality();
    tag.decide(Decision.ADMIT, 0L, null);
    return Decision.ADMIT;
  }

  /** A request that found no execution permit: it waits for one, unless it may not. */
  private Decision waitFor(RequestTag tag, ExecutionPermit execution) {
    if (!execution.mayWait(tag.sessionRole())) {
      tag.decide(Decision.REJECT, config.retryAfterMinNanos(), RejectionReason.QUEUE_FULL);
      return Decision.REJECT;
    }
    tag.decide(Decision.WAIT, 0L, null);
    return Decision.WAIT;
  }

  /**
   * Queues a request that got {@link Decision#WAIT}; the adapter must already have suspended
   * it. The listener is called once, possibly before this returns: {@code resumed} when a
   * permit is held for it (run it), or {@code expired} at its deadline or on shutdown (answer
   * 503, then {@link #settle} with {@link Outcome#EXPIRED}).
   *
   * @return false when the queue is full: the request is refused (answer 503, then complete
   *     with {@link Outcome#REJECTED}); {@link RequestTag#reason()} says why
   */
  public boolean enqueue(RequestTag tag, Waiter.Listener adapterListener) {
    if (tag.decision() != Decision.WAIT) {
      throw new IllegalStateException("enqueue needs a WAIT decision, was " + tag.decision());
    }
    EndpointClass route = tag.route();
    ExecutionPermit execution = route.execution;
    Waiter w =
        execution.enqueue(
            route.requestClass(),
            tag.sessionRole() == SessionRole.ADMITTED
                ? sessions.settings().maxWaitNanos(route.controller().targetNanos())
                : 0L,
            new Waiter.Listener() {
              @Override
              public void resumed(Waiter waiter) {
                long waited = ticker.read() - waiter.enqueuedNanos();
                tag.holdPermit(execution);
                tag.waited(waited);
                route.addWait(waited);
                tag.captureQuality();
                adapterListener.resumed(waiter);
              }

              @Override
              public void expired(Waiter waiter) {
                long waited = ticker.read() - waiter.enqueuedNanos();
                tag.waited(waited);
                route.addWait(waited);
                tag.decide(
                    Decision.REJECT,
                    config.retryAfterMinNanos(),
                    stopped ? RejectionReason.SHUTDOWN : RejectionReason.EXPIRED);
                adapterListener.expired(waiter);
              }
            });
    if (w == null) {
      tag.decide(Decision.REJECT, config.retryAfterMinNanos(), RejectionReason.QUEUE_FULL);
      return false;
    }
    tag.waiter = w;
    route.countEnqueued();
    return true;
  }

  /**
   * Leaves a deliberate delay (a bandwidth-shaping hold) out of the response time this request
   * reports to its admission controller: it says nothing about overload.
   */
  public void excludeFromResponseTime(RequestTag tag, long nanos) {
    tag.excludedNanos += nanos;
  }

  /**
   * Refuses a request the adapter cannot serve although it was admitted (e.g. it would have to
   * wait but its container cannot suspend it); answer 503, then complete with
   * {@link Outcome#REJECTED}.
   */
  public void reject(RequestTag tag, RejectionReason reason) {
    tag.decide(Decision.REJECT, config.retryAfterMinNanos(), reason);
  }

  /**
   * Takes a waiting request out of its queue because its client left or its container gave up
   * on it. Returns true if the caller now owns its outcome (answer it if possible, then
   * {@link #settle} with {@link Outcome#EXPIRED}); false if it had already left its queue, in
   * which case whoever took it out answers it.
   */
  public boolean abandon(RequestTag tag) {
    Waiter w = tag.waiter;
    if (w == null || queues == null || !queues.cancel(w)) {
      return false;
    }
    long waited = ticker.read() - w.enqueuedNanos();
    tag.waited(waited);
    tag.route().addWait(waited);
    tag.route().countAbandoned();
    tag.decide(Decision.REJECT, config.retryAfterMinNanos(), RejectionReason.ABANDONED);
    return true;
  }

  /**
   * Reports how a request ended. Only the first report for a tag counts; it returns the
   * request's execution permit, and a request that ran (completed or failed) gives its response
   * time, completion minus arrival, to its class's controller.
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return true if this call settled the outcome, false if it had been reported already
   */
  public boolean settle(RequestTag tag, Outcome outcome, long bytes) {
    if (!beginSettle(tag, outcome)) {
      return false;
    }
    endSettle(tag, outcome);
    return true;
  }

  /**
   * The first half of {@link #settle}: claims the request's one outcome, without counting it
   * yet. An adapter that measures more of the request (its bytes) records that in between, so
   * whoever sees the outcome counted also sees the rest.
   *
   * @return true if this call settled the outcome; then call {@link #endSettle} once
   */
  public boolean beginSettle(RequestTag tag, Outcome outcome) {
    Objects.requireNonNull(outcome, "outcome");
    return tag.settle(outcome);
  }

  /** The second half of {@link #settle}, after {@link #beginSettle} returned true. */
  public void endSettle(RequestTag tag, Outcome outcome) {
    endSettle(tag, outcome, NOT_READ);
  }

  /**
   * As {@link #endSettle(RequestTag, Outcome)} for a request whose application returned at
   * {@code returnedNanos} on this engine's ticker, before its container completed it (a resumed
   * request's async cycle): timed to then, as a request that did not wait is timed to its
   * filter's return. {@code Long.MIN_VALUE} reads the clock now.
   */
  public void endSettle(RequestTag tag, Outcome outcome, long returnedNanos) {
    EndpointClass route = tag.route();
    // The clock before the permit goes back: its hand-over to a waiter, whose dispatch the
    // container may run on this thread, and the wait queues' lock are the engine's work, not
    // the request's. Timed after them, a 50 ms method on a WAR's container threads, cold and
    // on saturated cores, "ran" 1–1.8 s while its requests waited up to a second for that lock,
    // and the limit cut itself from 180 to 2 on its own queue (the workload matrix).
    long now =
        !outcome.executed() || !tag.sampled && !route.timesEveryResponse
            ? 0L
            : returnedNanos != NOT_READ ? returnedNanos : ticker.read();
    if (tag.cpuStarted && outcome.executed()) {
      // The thread's CPU too: the hand-over is not this execution's work.
      route.execution.executionEnded(tag, tag.responseNanos(now));
    }
    if (outcome == Outcome.REJECTED && tag.reason() == RejectionReason.ADMISSION_RATE) {
      route.countRejectionAnswered(tag.stripe);
    }
    route.countOutcome(tag.stripe, outcome);
    if (sessions != null) {
      sessions.settled(
          route.endpoint().concurrencyGroup(),
          tag.sessionRole(),
          tag.sessionKey(),
          tag.completesSession(),
          outcome);
    }
    ExecutionPermit held;
    if (tag.detached) {
      // Its permit may have lapsed, or be lapsing now on the periodic task: taken atomically.
      held = tag.takePermit();
      detachedRequests.settled(tag);
    } else {
      held = tag.permit();
      if (held != null) {
        tag.holdPermit(null);
      }
    }
    if (held != null) {
      held.release(tag.stripe);
    }
    Permit admitted = tag.admitted();
    if (!outcome.executed()) {
      if (admitted != null) {
        if (outcome == Outcome.REDIRECTED) {
          admitted.onIgnore();
        } else {
          admitted.onDropped();
        }
      }
      return;
    }
    boolean sampled = tag.sampled;
    if (!sampled && !route.timesEveryResponse) {
      // Above TARGET_SAMPLES_PER_SECOND most completions are not recorded; when nothing else
      // needs their response time they cost no clock reading (measured: a reading is about
      // 20 ns here, a third of the engine's work per request).
      if (admitted != null) {
        admitted.onSuccess(Permit.NOT_MEASURED);
      }
      return;
    }
    recordResponse(tag, route, held, admitted, sampled, now);
  }

  /**
   * The completion of a request that ran and whose response time is read: it goes to the rate
   * controller's rounds, the limiter's permit, the quality controller and the execution permit's
   * limit. Apart from {@link #endSettle}, which every request runs, as the requests it serves
   * are a sample (unless the limiter or quality needs every one). {@code now} is the completion,
   * read before the permit went back.
   */
  private void recordResponse(
      RequestTag tag,
      EndpointClass route,
      ExecutionPermit held,
      Permit admitted,
      boolean sampled,
      long now) {
    long responseTime = tag.responseNanos(now);
    // The arrival, not now − responseTime: time excluded from the response time (a bandwidth
    // delay) must not make a request admitted before a rate cut look admitted after it.
    route.admission.record(
        route.controller(), sampled, responseTime, tag.arrivalNanos(), now, tag.stripe);
    if (admitted != null) {
      admitted.onSuccess(responseTime);
    }
    QualityController quality = route.quality;
    if (quality != null) {
      quality.record(responseTime);
    }
    if (sampled && held != null) {
      held.recordSample(
          Math.max(0L, responseTime - tag.waitedNanos()),
          responseTime,
          tag.handOverNanos(),
          now,
          tag.stripe);
    }
  }

  /**
   * The admitted request starts executing on the current thread (the adapter calls this right
   * before it runs the application): a sampled request under a concurrency limit reads the
   * thread's CPU time, so that its completion on the same thread tells the limit how much of
   * the cores the executions take ({@link ConcurrencyLimiter#executionStarted}).
   *
   * <p>A request that waited for its permit counts as waiting until now: between the hand-over
   * and this call it waited for a container thread (the resumed request's dispatch queues
   * behind the container's own work), and a limit that judged that as execution cut itself on
   * the container's queue, not the resource's. On a WAR whose 50 ms method runs on its
   * container's threads, in the first seconds after a cold start under clients that re-send a
   * refusal at once, the resumed requests' "executions" had a median of 230–890 ms while those
   * admitted at once ran 55–65 ms in the same seconds (the workload matrix's server log). Only
   * the first call after the wait counts: an application that goes async again is dispatched,
   * and reported running, once more, and that is execution. The hand-over (from the permit to
   * now) goes with the sample to the limit, which does not cut a window whose permits mostly
   * waited for threads.
   */
  public void running(RequestTag tag) {
    if (tag.waiter != null) {
      tag.waiter = null; // out of its queue for good: abandon() finds nothing to cancel
      long sinceArrival = tag.responseNanos(ticker.read());
      long handOver = sinceArrival - tag.waitedNanos();
      if (handOver > 0) {
        tag.waited(sinceArrival);
        tag.handedOver(handOver);
      }
    }
    if (tag.sampled) {
      ExecutionPermit execution = tag.route().execution;
      if (execution != null) {
        execution.executionStarted(tag);
      }
    }
  }

  /**
   * The application returned the admitted request's thread with its response not done (it went
   * async; the adapter calls this when the application's call returns and the outcome is not
   * settled yet): under a concurrency limit, its permit lapses once it has executed {@value
   * DetachedRequests#LAPSE_TARGETS} times its class's target, and the limit takes that as its
   * sample (see {@link DetachedRequests}). Its outcome is still settled when the response ends.
   * A request that holds a thread while it runs never lapses, so the container's threads stay
   * bounded by the limit's ceiling.
   */
  public void detached(RequestTag tag) {
    detachedRequests.add(tag);
  }

  /** The detached requests whose outcome is not settled yet (see {@link #detached}). */
  int detachedCount() {
    return detachedRequests.size();
  }

  /**
   * Stops the engine: every waiting request expires (its adapter answers 503) and the periodic
   * task ends. Requests already running finish normally.
   */
  public void shutdown() {
    stopped = true;
    periodic.stop();
    if (queues != null) {
      queues.shutdown();
    }
  }

  /** Builds an {@link OverloadEngine}; the adapter supplies time, timers and listeners. */
  public static final class Builder {
    private final OverloadConfig config;
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler;
    private AdmissionListener admissionListener = AdmissionListener.NONE;
    private QueueListener queueListener = QueueListener.NONE;
    private DoubleSupplier cpuUtilisation = () -> 0.0;
    private DoubleSupplier machineCpuLoad = () -> Double.NaN;
    private CpuClock cpu = CpuClock.NONE;
    private QualityListener qualityListener = QualityListener.NONE;
    private CookieKeys sessionKeys;
    private FrameworkRoutes frameworkRoutes = FrameworkRoutes.NONE;
    private OverloadEngine predecessor;
    private AdmissionSettings admission;
    private QueueSettings queue;
    private DegradeSettings degrade;
    private SessionSettings sessions;
    private boolean closesConnectionAfter503;

    private Builder(OverloadConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    /** Timers for queue deadlines and the periodic task; required when queues are configured. */
    public Builder scheduler(Scheduler value) {
      this.scheduler = Objects.requireNonNull(value, "scheduler");
      return this;
    }

    public Builder admissionListener(AdmissionListener value) {
      this.admissionListener = Objects.requireNonNull(value, "admissionListener");
      return this;
    }

    public Builder queueListener(QueueListener value) {
      this.queueListener = Objects.requireNonNull(value, "queueListener");
      return this;
    }

    /** The CPU utilisation in [0, 1], read once per window when {@code queue.overload.signal=cpu}. */
    public Builder cpuUtilisation(DoubleSupplier value) {
      this.cpuUtilisation = Objects.requireNonNull(value, "cpuUtilisation");
      return this;
    }

    /**
     * The CPU clocks the concurrency limits read to tell whether the admitted executions are
     * what takes the process's cores; {@link CpuClock#NONE} (the default) judges on execution
     * times alone.
     */
    public Builder cpuClock(CpuClock value) {
      this.cpu = Objects.requireNonNull(value, "cpuClock");
      return this;
    }

    /**
     * The machine's CPU load in [0, 1], read by the periodic task: while the cores are saturated
     * a waiting request costs the requests being served, and the concurrency limit's waiting
     * rooms narrow with their waiters' expiries. NaN (the default) reads as not saturated.
     */
    public Builder machineCpuLoad(DoubleSupplier value) {
      this.machineCpuLoad = Objects.requireNonNull(value, "machineCpuLoad");
      return this;
    }

    /** Told about every period of every quality controller (logs, metrics). */
    public Builder qualityListener(QualityListener value) {
      this.qualityListener = Objects.requireNonNull(value, "qualityListener");
      return this;
    }

    /** The keys that sign session cookies ({@code sessions.*}); random when not given. */
    public Builder sessionKeys(CookieKeys value) {
      this.sessionKeys = value;
      return this;
    }

    /**
     * Routes a framework module read from its resource model at start (Jakarta REST resource
     * methods, Spring handler methods): a request they match goes to their endpoint unless a
     * configured {@code endpoints.<e>.paths} rule claims it. The adapter must also parse the
     * routes' {@link FrameworkRoutes#annotations() annotations} into the configuration.
     */
    public Builder frameworkRoutes(FrameworkRoutes value) {
      this.frameworkRoutes = Objects.requireNonNull(value, "frameworkRoutes");
      return this;
    }

    /**
     * The engine this one replaces at a reload: its concurrency limits, learned rates and
     * session table carry over where the same group, endpoint and class still exist.
     */
    public Builder predecessor(OverloadEngine value) {
      this.predecessor = value;
      return this;
    }

    /**
     * The sections of the configuration the adapter parsed already, all of them from the
     * configuration this builder was made for, so that a configuration is parsed once; without
     * them the engine parses its sections itself.
     */
    public Builder sections(
        AdmissionSettings admission,
        QueueSettings queue,
        DegradeSettings degrade,
        SessionSettings sessions) {
      this.admission = Objects.requireNonNull(admission, "admission");
      this.queue = Objects.requireNonNull(queue, "queue");
      this.degrade = Objects.requireNonNull(degrade, "degrade");
      this.sessions = Objects.requireNonNull(sessions, "sessions");
      return this;
    }

    /**
     * Whether the adapter's container closes the connection after every 503 (Tomcat does): then
     * {@code rejectionStatus: auto} answers refusals 429. False by default.
     */
    public Builder closesConnectionAfter503(boolean value) {
      this.closesConnectionAfter503 = value;
      return this;
    }

    public OverloadEngine build() {
      OverloadEngine engine = new OverloadEngine(this);
      engine.takeOver();
      return engine;
    }
  }
}
