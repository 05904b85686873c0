package org.overloadcontrol.internal.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Optional;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.QualityLevel;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.base.SessionRole;
import org.overloadcontrol.limiter.Permit;

/**
 * One request as the engine sees it: its endpoint and class, its arrival time, the decision it
 * got and whether its outcome has been reported. The adapter creates it with
 * {@link OverloadEngine#tag}, asks {@link OverloadEngine#arrive} for a decision, and reports the
 * outcome with {@link OverloadEngine#settle} exactly once. It is also the request's
 * {@link OverloadContext}.
 */
public final class RequestTag implements OverloadContext {

  private static final VarHandle OUTCOME;
  private static final VarHandle PERMIT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      OUTCOME = lookup.findVarHandle(RequestTag.class, "outcome", Outcome.class);
      PERMIT = lookup.findVarHandle(RequestTag.class, "permit", ExecutionPermit.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A {@link #taggedNanos()} that says the ticker was not read at tagging. */
  static final long NOT_READ = Long.MIN_VALUE;

  private final EndpointClass route;
  private final long arrivalNanos;

  /**
   * The tagging thread's stripe ({@code StripedCounts.currentStripe()}): looked up once, it
   * serves every striped count of the request (any stripe is correct; the thread's own is fast).
   */
  final int stripe;

  /**
   * Whether its response time is one of its class's samples: drawn at arrival, before anything
   * about the response is known (see {@code P90Estimator.drawSample(long, int)}).
   */
  final boolean sampled;

  /**
   * Whether {@link OverloadEngine#running} read the thread's CPU time for it: only then does its
   * completion look for the start on its thread. A boolean fits the tag's padding (96 bytes).
   */
  boolean cpuStarted;

  /**
   * Whether its application returned the thread with the response not done ({@link
   * OverloadEngine#detached}): from then on its permit may lapse ({@link DetachedRequests}), so
   * its permit is taken atomically at the outcome. Volatile: it orders the adapter's thread,
   * which sets it, against the one that settles the outcome (see {@link DetachedRequests}).
   */
  volatile boolean detached;

  private Decision decision;

  /**
   * Until the decision, the ticker when the request was tagged ({@link
   * #NOT_READ} when it was not read): the first admission try uses it rather than
   * a clock read of its own (a refusal is still decided on a fresh reading). Once decided, a
   * refusal's retry-after, or for a request that waited and was resumed, its hand-over (see
   * {@link #handedOver}). One field for all three: the tag is all a request allocates on the
   * engine's path, and a long more made it a word longer.
   */
  private long taggedThenDecidedNanos;

  private RejectionReason reason;

  /**
   * The execution permit this request holds while it executes (its route's, shared); released
   * once, on completion.
   * Release stores and acquire loads ({@link #holdPermit}, {@link #permit()}): a volatile
   * store would cost a fence per admitted request, and the thread that completes the request
   * sees the store through the container's dispatch or the outcome's CAS anyway.
   */
  private ExecutionPermit permit;

  /**
   * The permit its limiter gave it at admission, when that limiter hears outcomes; else null.
   * Plain, like the decision: set before the request runs, read once its outcome is settled.
   */
  private Permit admitted;

  volatile org.overloadcontrol.internal.queue.Waiter waiter;
  private volatile long waitedNanos;

  /** Deliberate delays (bandwidth shaping) left out of the response time the controller sees. */
  volatile long excludedNanos;

  // Plain, like the decision: set before the request runs, and published to another thread by
  // the container's dispatch. Volatile, the store would cost a fence per request. Its level is
  // derived when asked: a field for it made the tag a word longer.
  private double quality = 1.0;

  @SuppressWarnings("unused") // written through OUTCOME
  private volatile Outcome outcome;

  // Plain: set on the request's thread before admission, read by the queues under their lock
  // and at completion, after the outcome's CAS.
  private SessionRole sessionRole = SessionRole.NONE;
  private String sessionKey;
  private boolean sessionCompleted;

  RequestTag(
      EndpointClass route, long arrivalNanos, long taggedNanos, int stripe, boolean sampled) {
    this.route = route;
    this.stripe = stripe;
    this.sampled = sampled;
    this.arrivalNanos = arrivalNanos;
    this.taggedThenDecidedNanos = taggedNanos;
  }

  /** The request's route: its endpoint and class, as {@link Routes#route} chose them. */
  public EndpointClass route() {
    return route;
  }

  public ControlledEndpoint endpointState() {
    return route.endpoint();
  }

  public ClassDefinition requestClassState() {
    return route.requestClass();
  }

  /** The decision {@link OverloadEngine#arrive} gave, or null before. */
  public Decision decision() {
    return decision;
  }

  /** For a rejected request: how long until its class's bucket has a token again. */
  public long retryAfterNanos() {
    return decision == Decision.REJECT ? taggedThenDecidedNanos : 0L;
  }

  /**
   * A request that waited for its permit starts executing {@code nanos} after it was handed the
   * permit (the wait for a container thread to resume it on).
   */
  void handedOver(long nanos) {
    if (decision == Decision.WAIT) {
      taggedThenDecidedNanos = nanos;
    }
  }

  /** The hand-over {@link #handedOver} recorded; 0 for a request that did not wait. */
  long handOverNanos() {
    return decision == Decision.WAIT ? taggedThenDecidedNanos : 0L;
  }

  /** The ticker when the request was tagged, or {@link #NOT_READ} (always once decided). */
  long taggedNanos() {
    return decision == null ? taggedThenDecidedNanos : NOT_READ;
  }

  /** The outcome reported, or null while the request is in progress. */
  public Outcome outcome() {
    return outcome;
  }

  /** Why the request was refused or expired ({@code admission-rate}, {@code queue-full}, ...). */
  public RejectionReason reason() {
    return reason;
  }

  /** The waiter while the request is (or was) queued, else null. */
  public org.overloadcontrol.internal.queue.Waiter waiter() {
    return waiter;
  }

  /** Whether the request holds an execution permit. */
  public boolean holdsPermit() {
    return permit() != null;
  }

  ExecutionPermit permit() {
    return (ExecutionPermit) PERMIT.getAcquire(this);
  }

  void holdPermit(ExecutionPermit held) {
    PERMIT.setRelease(this, held);
  }

  /**
   * Takes the permit the request holds, atomically, or null when none is left (it lapsed, or
   * was taken): for a detached request, whose outcome and lapse may race.
   */
  ExecutionPermit takePermit() {
    return (ExecutionPermit) PERMIT.getAndSet(this, null);
  }

  Permit admitted() {
    return admitted;
  }

  void admitted(Permit permit) {
    this.admitted = permit;
  }

  void decide(Decision d, long retryAfter, RejectionReason why) {
    this.decision = d;
    this.taggedThenDecidedNanos = retryAfter;
    this.reason = why;
  }

  /** What the request is to session-aware admission. */
  public SessionRole sessionRole() {
    return sessionRole;
  }

  /** The key of the request's admitted session in the session table, or null. */
  public String sessionKey() {
    return sessionKey;
  }

  /** Sets the request's session, before it is admitted (session-aware admission only). */
  public void session(SessionRole role, String key) {
    this.sessionRole = role;
    this.sessionKey = key;
  }

  /** Whether the application said this request completes its session. */
  public boolean completesSession() {
    return sessionCompleted;
  }

  /** Marks this request as the one that completes its session (e.g. the order confirmation). */
  public void completeSession() {
    this.sessionCompleted = true;
  }

  /** Fixes the request's quality at its endpoint's current one; on admission or resumption. */
  void captureQuality() {
    if (route.quality == null) {
      return;
    }
    this.quality = route.endpoint().quality();
  }

  void waited(long nanos) {
    this.waitedNanos = nanos;
  }

  long waitedNanos() {
    return waitedNanos;
  }

  /** Sets the outcome if none is set yet; the one place an outcome is decided. */
  boolean settle(Outcome o) {
    return OUTCOME.compareAndSet(this, null, o);
  }

  @Override
  public String endpoint() {
    return route.endpoint().name();
  }

  @Override
  public String requestClass() {
    return route.requestClass().name();
  }

  @Override
  public long arrivalNanos() {
    return arrivalNanos;
  }

  /** The time from its arrival to {@code now}, less its deliberate delays: its response time. */
  long responseNanos(long now) {
    return now - arrivalNanos - excludedNanos;
  }

  @Override
  public Duration elapsed() {
    // The endpoint's ticker rather than a field in every tag (one tag per request).
    return Duration.ofNanos(Math.max(0L, route.endpoint().ticker().read() - arrivalNanos));
  }

  @Override
  public Duration waited() {
    return Duration.ofNanos(waitedNanos);
  }

  @Override
  public Duration p90Estimate() {
    long estimate = route.p90().estimateNanos();
    return estimate < 0 ? Duration.ZERO : Duration.ofNanos(estimate);
  }

  @Override
  public Optional<Duration> target() {
    long target = route.controller().targetNanos();
    return target > 0 ? Optional.of(Duration.ofNanos(target)) : Optional.empty();
  }

  @Override
  public double admissionRate() {
    ClassController c = route.controller();
    return c.settings().controlled()
            && route.endpoint().admission().rateControlled()
            && route.endpoint().admission().admissionEnabled()
        ? c.rate()
        : Double.POSITIVE_INFINITY;
  }

  @Override
  public double quality() {
    return quality;
  }

  @Override
  public QualityLevel qualityLevel() {
    return QualityLevel.of(quality, route.endpoint().minQuality());
  }

  @Override
  public String toString() {
    return "RequestTag{"
        + endpoint()
        + "/"
        + requestClass()
        + ", decision="
        + decision
        + ", outcome="
        + outcome
        + "}";
  }
}
