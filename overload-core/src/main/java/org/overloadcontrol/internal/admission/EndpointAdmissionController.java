package org.overloadcontrol.internal.admission;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.measure.P90Estimator;

/**
 * The admission controller of one endpoint (one SEDA stage): a token bucket and response-time
 * controller per request class, tied together by the multiclass rules of Welsh &amp; Culler
 * 2003, §3.3.
 *
 * <p>Multiclass: when class c misses its target (err > err_d), the rates of all classes of lower
 * rank seen at this endpoint are divided by adjlo_d, and those classes are flagged so that their
 * next round does not raise them. If all lower classes already sit at rate_min, c's counter lc
 * grows, and once it reaches lc_thresh, c cuts its own rate by adj_d in each round it still
 * misses. lc returns to zero when c meets its target. A class with no lower class (the lowest,
 * or the only one) cuts itself at once: there is nobody to shed in its place, and with a single
 * class this is exactly the single-class controller of §3.2.
 *
 * <p>Dead time (not in the paper; {@link ControllerParameters#judgeOnFreshSamples()}, on by
 * default, off for the paper's exact controller). After a cut, requests admitted at the old
 * rate are still queued and finish late, so the paper's next rounds still see a p90 far over
 * the target, and the smoothed estimate needs about six rounds to fall from ten times the
 * target to below it: each of those rounds cuts again, 1.2^6 = 3× too deep. Measured on
 * {@code AdmissionControlIT}'s server (4 permits × 50 ms, 80/s, offered 160/s, target 200 ms)
 * in {@code DeadTimeTest}: the paper's controller admits 38/s over 10–40 s; this one 75/s with
 * a p90 of 229 ms over 10–60 s. Its rules:
 * <ul>
 *   <li>a round that lowers a class's rate (its own cut, or adjlo_d from a higher class, or a
 *       {@link #restartRate}) marks the time; samples of requests that arrived before the
 *       mark are stale: counted, not judged (one compare on the request path);
 *   <li>the first round with fresh samples restarts the estimate from their p90;
 *   <li>a round with only stale samples holds ({@code STALE_ONLY}); after
 *       {@link #MAX_STALE_ROUNDS} in a row the mark is forgotten and all samples judge again,
 *       so a backlog older than the cut cannot freeze the rate;
 *   <li>a miss on fresh samples cuts by adj_d, and once more for each round held on stale
 *       samples since the last cut (the paper would have cut in each), but not below the
 *       round's completions per second divided by adj_d ({@code HOLD_AT_THROUGHPUT} if that
 *       leaves the rate as it was; the next round's estimate then restarts from its own
 *       samples): while requests queue, completions are what the server can do, and a step
 *       below them drains the queue. Requests admitted just after a cut still wait behind
 *       the queue built before it, so with fresh samples alone the cuts still went on to
 *       40/s (the paper's to 23/s); with the floor they stop at 67/s;
 *   <li>a miss cuts in proportion to it (target / estimate, at most {@link #MAX_CUT} a round)
 *       when that is deeper than adj_d, and scales the class so that its resource group's
 *       total rate stays under the group's completions ({@link RateGroup}): on a shared
 *       bottleneck feedback comes seconds late, and a cut of 1.2 per fresh round left eight
 *       endpoints at four times the database's capacity ({@code TwoClassSpikeTest}).
 * </ul>
 *
 * <p>Concurrency: a round runs on whichever request thread first sees nreq samples or the
 * timeout for its class. Rounds of one endpoint are serialised by {@link #roundGuard}, taken by
 * compare-and-set and never waited for: a thread that loses the race goes on with its request,
 * and the samples it left start the next round. Request threads only take tokens and record
 * samples, which are lock-free.
 */
public final class EndpointAdmissionController {

  /**
   * Rounds in a row that may see only stale samples before the cut is forgotten. Each is a
   * timeout long (1 s by default), so a backlog of more than about three timeouts is judged
   * on all its samples, as in the paper, instead of holding the rate on it.
   */
  static final int MAX_STALE_ROUNDS = 3;

  /**
   * Timeouts without a sample after which a higher class no longer holds lower classes down:
   * they get back the rate they had before it first cut them. A lower class decides this in
   * its own round, one per timeout, so it is restored within one more timeout: two keep the
   * whole recovery within three rounds of the higher class's last (with three it took four,
   * 3.6 s in {@code RateControllerMendsTest}), and a higher class that paused for one round
   * still holds its place.
   */
  static final int IDLE_ROUNDS = 2;

  /**
   * The deepest cut of a class's own rate in one round, judging on fresh samples: the rate
   * falls to target / estimate of itself, but not below a quarter of it (one round's p90 of a
   * few samples can be far off, and the next round cuts again if the miss was real).
   */
  static final double MAX_CUT = 4.0;

  /**
   * Timeouts after its last activity within which a higher class of the resource group counts
   * as having just left: the lower classes then take up the group's rate at once
   * ({@link #fillAfterHigherLeft}). Past it, a class climbs by its own rounds again.
   */
  static final int LEFT_ROUNDS = 10;

  /** The setpoint of the group's queue as a share of a class's target (Little's law check). */
  static final double SETPOINT = 0.9;

  private final String endpoint;
  private final Function<ClassDefinition, ClassSettings> settings;
  private final AdmissionListener listener;
  private final ConcurrentHashMap<String, ClassController> byName = new ConcurrentHashMap<>();
  private final ReentrantLock createLock = new ReentrantLock();
  private final AtomicBoolean roundGuard = new AtomicBoolean();
  private final long[] countScratch = new long[3];

  /** The classes seen at this endpoint, highest rank first; replaced, never mutated. */
  private volatile ClassController[] ordered = new ClassController[0];

  private volatile boolean admissionEnabled = true;

  /** False when the endpoint's concurrency group admits instead: rounds then only measure. */
  private final boolean rateControlled;

  /** Whether other endpoints with a target share this one's bottleneck (its resource group). */
  private final BooleanSupplier sharesBottleneck;

  /** The rate controllers on this endpoint's bottleneck. */
  private final RateGroup group;

  /** Whether the running round was run by an arrival not yet admitted (round state). */
  private boolean roundForArrival;

  /**
   * @param endpoint the endpoint's name
   * @param settings the settings of each class at this endpoint
   * @param listener told about every round
   */
  public EndpointAdmissionController(
      String endpoint,
      Function<ClassDefinition, ClassSettings> settings,
      AdmissionListener listener) {
    this(endpoint, settings, listener, true, () -> false);
  }

  /**
   * @param rateControlled false when a concurrency group admits this endpoint's requests: the
   *     token buckets then admit everything and the rounds only measure (p90 estimates and
   *     the sampling probability)
   */
  public EndpointAdmissionController(
      String endpoint,
      Function<ClassDefinition, ClassSettings> settings,
      AdmissionListener listener,
      boolean rateControlled) {
    this(endpoint, settings, listener, rateControlled, () -> false);
  }

  /**
   * @param sharesBottleneck whether other endpoints with a target share this endpoint's
   *     bottleneck (its resource group): then a class's cut is not floored at its own
   *     completions (see {@link RateRound})
   */
  public EndpointAdmissionController(
      String endpoint,
      Function<ClassDefinition, ClassSettings> settings,
      AdmissionListener listener,
      boolean rateControlled,
      BooleanSupplier sharesBottleneck) {
    this(endpoint, settings, listener, rateControlled, sharesBottleneck, new RateGroup());
  }

  /**
   * @param group the rate controllers of the endpoints on this endpoint's bottleneck, this one
   *     included (it joins here): a class that misses keeps the group's total rate under the
   *     group's completions (see {@link RateGroup})
   */
  public EndpointAdmissionController(
      String endpoint,
      Function<ClassDefinition, ClassSettings> settings,
      AdmissionListener listener,
      boolean rateControlled,
      BooleanSupplier sharesBottleneck,
      RateGroup group) {
    this.group = Objects.requireNonNull(group, "group");
    this.rateControlled = rateControlled;
    this.sharesBottleneck = sharesBottleneck;
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.listener = Objects.requireNonNull(listener, "listener");
    group.join(this);
  }

  public String endpoint() {
    return endpoint;
  }

  /** The controller of {@code requestClass} at this endpoint, created on first use. */
  public ClassController forClass(ClassDefinition requestClass, long now) {
    ClassController existing = byName.get(requestClass.name());
    return existing != null ? existing : create(requestClass, now);
  }

  private ClassController create(ClassDefinition requestClass, long now) {
    // A lock, not a monitor: the first requests of a class race here on request threads, and a
    // virtual thread that found a monitor taken would pin its carrier on Java 21 to 23.
    createLock.lock();
    try {
      ClassController existing = byName.get(requestClass.name());
      if (existing != null) {
        return existing;
      }
      ClassSettings classSettings = settings.apply(requestClass);
      ClassController created =
          new ClassController(
              endpoint,
              requestClass,
              classSettings,
              ClassController.measurementFor(classSettings, now),
              now);
      startWithinOthers(created, ordered, now);
      ClassController[] next = Arrays.copyOf(ordered, ordered.length + 1);
      next[next.length - 1] = created;
      Arrays.sort(next, (a, b) -> a.requestClass().compareTo(b.requestClass()));
      ordered = next;
      byName.put(requestClass.name(), created);
      return created;
    } finally {
      createLock.unlock();
    }
  }

  /**
   * Starts a class that arrives at an endpoint where other classes already run at no more than
   * their rates together (judging on fresh samples; the paper starts every class at the
   * initial rate): what the endpoint's rounds have learned it takes. In the two-class
   * experiment the high class arrived at eight endpoints at 20/s each, 160/s into a 40/s
   * database, and its first samples came 1.5 s later from the queue it had built.
   */
  private static void startWithinOthers(
      ClassController created, ClassController[] others, long now) {
    if (others.length == 0 || !created.settings().parameters().judgeOnFreshSamples()) {
      return;
    }
    double sum = 0;
    for (ClassController other : others) {
      sum += other.rate();
    }
    created.setRate(Math.min(created.rate(), sum), now);
  }

  /**
   * Starts {@code requestClass} at the rate {@code before} had learned under a configuration
   * this one replaces (a reload), when both control their class; the rate stays within this
   * controller's own bounds.
   */
  public void carryRate(ClassDefinition requestClass, ClassController before, long now) {
    ClassController c = forClass(requestClass, now);
    if (c.controlled() && before.controlled()) {
      c.setRate(before.rate(), now);
    }
  }

  /** The class controllers seen so far, highest rank first. */
  public ClassController[] classes() {
    return ordered.clone();
  }

  /**
   * Whether token-bucket admission applies. Degradation turns it off while it can still lower
   * quality (Welsh &amp; Culler 2003, §3.4); measurement and rounds go on either way.
   */
  public boolean admissionEnabled() {
    return admissionEnabled;
  }

  /** Whether the token buckets admit (false when a concurrency group does). */
  public boolean rateControlled() {
    return rateControlled;
  }

  public void setAdmissionEnabled(boolean enabled) {
    this.admissionEnabled = enabled;
  }

  /**
   * Sets class {@code c}'s rate (clamped to [rate_min, rate_max]) from outside its rounds: used
   * by degradation when it hands control back to admission, so the bucket starts from the
   * endpoint's measured throughput rather than wherever its rounds drifted while admission was
   * off. A round running at the same time may overwrite it with its own result; both are valid
   * rates, and the next round corrects either.
   */
  public void restartRate(ClassController c, double ratePerSecond, long now) {
    c.setRate(ratePerSecond, now);
    // Samples from before the restart measure another regime (admission off, or a rate the
    // rounds had drifted to): judged like samples from before a cut.
    c.markCut(now);
  }

  /**
   * Decides admission for one arrival of class {@code c}: runs a round first if its timeout
   * has passed, then takes a token when the class is controlled.
   */
  public boolean tryAdmit(ClassController c, long now) {
    return tryAdmit(c, now, StripedCounts.currentStripe());
  }

  /** {@link #tryAdmit(ClassController, long)} from the caller's stripe (see StripedCounts). */
  public boolean tryAdmit(ClassController c, long now, int stripe) {
    if (c.p90().dueByTime(now)) {
      runRoundIfFree(c, now, true);
    }
    if (!c.controlled() || !rateControlled || !admissionEnabled || c.tryAcquire(now, stripe)) {
      return true;
    }
    c.noteRejected(now);
    return false;
  }

  /**
   * Records the response time of one request of class {@code c} that ran, taking its arrival
   * as {@code now − responseTimeNanos}.
   */
  public void record(ClassController c, long responseTimeNanos, long now) {
    record(c, responseTimeNanos, now - responseTimeNanos, now);
  }

  /**
   * Records the response time of one request of class {@code c} that ran and arrived at
   * {@code arrivalNanos}: the arrival tells whether it was admitted before the last cut of its
   * class's rate (see the class javadoc).
   */
  public void record(ClassController c, long responseTimeNanos, long arrivalNanos, long now) {
    record(c, c.p90().drawSample(), responseTimeNanos, arrivalNanos, now);
  }

  /**
   * As {@link #record(ClassController, long, long, long)}, the sample already drawn with
   * {@link P90Estimator#drawSample()}: an unsampled completion only gives a round due by
   * time its chance to run.
   */
  public void record(
      ClassController c, boolean sampled, long responseTimeNanos, long arrivalNanos, long now) {
    record(c, sampled, responseTimeNanos, arrivalNanos, now, StripedCounts.currentStripe());
  }

  /** As {@link #record(ClassController, boolean, long, long, long)}, into {@code stripe}. */
  public void record(
      ClassController c,
      boolean sampled,
      long responseTimeNanos,
      long arrivalNanos,
      long now,
      int stripe) {
    P90Estimator p90 = c.p90();
    if (sampled && p90.recordDrawn(responseTimeNanos, arrivalNanos, now, stripe)
        || p90.dueByTime(now)) {
      runRoundIfFree(c, now, false);
    }
  }

  /**
   * @param forArrival whether an arrival runs the round before its own admission is decided:
   *     its caller counts it in flight already ({@link ClassController#countInFlight})
   */
  private void runRoundIfFree(ClassController c, long now, boolean forArrival) {
    if (!roundGuard.compareAndSet(false, true)) {
      return;
    }
    try {
      if (c.p90().due(now)) {
        roundForArrival = forArrival;
        round(c, now);
      }
    } finally {
      roundGuard.set(false);
    }
  }

  /**
   * One controller round for class c; caller holds the round guard. It closes the class's
   * measurement window, tells the group, gives a class that a higher one held down its rate back
   * when that one has left (steps that read the group as they change it), then folds the
   * window's p90 into the estimate, hands the class's state and the window's readings to
   * {@link RateRound} and applies what it decided, to this class and to the lower ones.
   */
  private void round(ClassController c, long now) {
    ControllerParameters p = c.settings().parameters();
    P90Estimator p90 = c.p90();
    double rateBefore = c.rate();
    long samp = p90.closeWindow(now, countScratch);
    long count = countScratch[0];
    long staleCount = countScratch[1];
    if (p.judgeOnFreshSamples()) {
      group.noteSilence(c, now, LEFT_ROUNDS * p.timeoutNanos());
    }
    if (c.controlled() && rateControlled) {
      // The same classes whose rates the group sums (RateGroup#activeRate).
      group.completed(p90.completionsPerSecond() * countScratch[2] / 1e9, now, p.timeoutNanos());
    }
    if (samp >= 0 || staleCount > 0) {
      c.sampledAt(now);
    }
    if (restoreIfHigherIdle(c, now)) {
      // Gone long enough to restore is gone long enough to fill: in the same round, not the
      // next (a round timeout of the low class's return).
      fillAfterHigherLeft(c, now);
      report(c, now, count, samp, Double.NaN, rateBefore, Action.RESTORED);
      return;
    }
    if (fillAfterHigherLeft(c, now)) {
      report(c, now, count, samp, Double.NaN, rateBefore, Action.FILLED_AFTER_HIGHER_LEFT);
      return;
    }
    // The group's readings are taken before the round decides, as plain values: only the
    // higher classes' activity, which costs a walk of the group, waits for a round that can
    // use it.
    boolean withoutSamples = samp < 0 && staleCount == 0;
    ClassController[] all = ordered;
    int rank = c.requestClass().rank();
    boolean anyLower = false;
    boolean allLowerAtMin = true;
    for (ClassController other : all) {
      if (other.requestClass().rank() < rank) {
        anyLower = true;
        allLowerAtMin &= other.atRateMin();
      }
    }
    // A round that restored or filled the class's rate left the estimate as it was: the next
    // round with samples restarts it.
    double cur = p90.fold(samp);
    RateRound.Window window =
        new RateRound.Window(
            samp,
            cur,
            staleCount,
            p90.completionsPerSecond(),
            rateControlled,
            all.length <= 1 && !sharesBottleneck.getAsBoolean(),
            anyLower,
            allLowerAtMin,
            withoutSamples && higherClassActive(c, now),
            groupQueued(c));
    RateRound.State before = c.roundState();
    RateRound.Next next = RateRound.next(before, window, c.settings());
    c.apply(before, next, now);
    if (next.lower() != RateRound.Lower.NONE) {
      for (ClassController other : all) {
        if (other.requestClass().rank() < rank) {
          if (next.lower() == RateRound.Lower.CUT) {
            cut(other, p.adjLoD(), now);
          }
          other.suppressNextIncrease();
        }
      }
    }
    Action action = next.action();
    // After the lower classes' cuts: the group's total is read with them.
    if (next.missed()
        && p.judgeOnFreshSamples()
        && capToGroup(c, now)
        && action != Action.DECREASE) {
      action = Action.DECREASE_TO_GROUP;
    }
    boolean judged = samp >= 0;
    report(c, now, judged ? count : 0, judged ? samp : -1, next.error(), rateBefore, action);
  }

  /**
   * Whether a class ranked above c is still present anywhere in c's resource group: active
   * (sampled, or admitted or refused by its bucket) at any endpoint of the group in the last
   * {@link #IDLE_ROUNDS} timeouts of c, or within its longest recent silence
   * ({@link RateGroup#higherActive}). Judged at c's own endpoint only, low got its rate back at
   * one page after another while the high users went on at the others, in the two-class
   * experiment 37 times in a spike of 20 s.
   */
  private boolean higherClassActive(ClassController c, long now) {
    return group.higherActive(
        c.requestClass().rank(), now, IDLE_ROUNDS * c.settings().parameters().timeoutNanos());
  }

  /**
   * Scales class c's rate so that the rates of its bottleneck's active classes together stay
   * under what they completed divided by adj_d (see {@link RateGroup}); returns whether it cut.
   * Only a class that missed its target calls it: a group under its target may admit more
   * than it completes, since it is not queueing.
   */
  private boolean capToGroup(ClassController c, long now) {
    double completed = group.completionsPerSecond();
    if (!group.shared() && ordered.length < 2 || Double.isNaN(completed)) {
      return false;
    }
    ControllerParameters p = c.settings().parameters();
    double total = group.activeRate(now, IDLE_ROUNDS * p.timeoutNanos());
    double allowed = completed / p.adjD();
    double before = c.rate();
    if (!(total > allowed)) {
      return false;
    }
    c.setRate(before * allowed / total, now);
    if (c.rate() < before) {
      c.markCut(now);
      return true;
    }
    return false;
  }

  /**
   * Whether the resource group's queue holds more than {@link #SETPOINT} of c's target
   * (judging on fresh samples, several classes or endpoints on the bottleneck): then no class
   * of the group raises its rate. Sentinel's BBR check (requests in flight over the most
   * completed per second times the least response time), read as Little's law: requests in
   * flight over completions per second is the wait of a request admitted now, known when it is
   * admitted, while response times tell it only when it completes, on a shared bottleneck
   * seconds later. In the two-class case the eight endpoints' increases (about 2/s a round
   * each, and doublings of classes admitted at under a request a round) took the group's
   * total from 25/s to 54/s within a second of each drained queue ({@code TwoClassSpikeTest}).
   */
  private boolean groupQueued(ClassController c) {
    ControllerParameters p = c.settings().parameters();
    if (!p.judgeOnFreshSamples() || !group.shared() && ordered.length < 2) {
      return false;
    }
    return group.queuedOver((long) (SETPOINT * c.targetNanos()), roundForArrival ? 1 : 0);
  }

  /**
   * Raises class c with the other active classes of its resource group to what the group
   * completed, when a higher class of the group has just left (active in the last
   * {@link #LEFT_ROUNDS} timeouts, not in the last one: its refused arrivals count as activity,
   * see {@link ClassController#activeAtNanos}) and the group's queue is under the setpoint
   * ({@link #groupQueued}). The rate the higher class used is free
   * now; by its own rounds a class held down during the higher class's stay climbs back at
   * about 2/s a round, and had none of its requests admitted for 8–13 rounds of 100 ms after
   * the high class left in the two-class experiment. As the concurrency limit's partitions, a
   * lower class borrows what the higher one no longer uses. Judging on fresh samples only.
   */
  private boolean fillAfterHigherLeft(ClassController c, long now) {
    ControllerParameters p = c.settings().parameters();
    if (!p.judgeOnFreshSamples()
        || !c.controlled()
        || !rateControlled
        || !group.shared() && ordered.length < 2) {
      return false;
    }
    int rank = c.requestClass().rank();
    if (group.higherActive(rank, now, p.timeoutNanos())
        || !group.higherActive(rank, now, LEFT_ROUNDS * p.timeoutNanos())
        || groupQueued(c)) {
      return false;
    }
    double completed = group.completionsPerSecond();
    // Under the setpoint the group is not queueing, so what it completed it can admit again,
    // shared by the classes still there (the one that left no longer counts).
    double total = Math.max(c.rate(), group.activeRate(now, p.timeoutNanos()));
    if (Double.isNaN(completed) || !(total < completed)) {
      return false;
    }
    double before = c.rate();
    c.setRate(before * completed / total, now);
    if (!(c.rate() > before)) {
      return false;
    }
    c.forgetRateBeforeCutFromAbove();
    c.takeSuppressIncrease();
    c.restartEstimate();
    return true;
  }

  /**
   * Gives class c back the rate it had before a higher class first cut it (§3.3's adjlo_d)
   * once no higher class is present in the resource group ({@link #higherClassActive}). In the
   * paper a cut class climbs back by its own rounds only: from rate_min, 0.05/s, that took
   * ~25 s in the two-class experiment after the higher class had left.
   */
  private boolean restoreIfHigherIdle(ClassController c, long now) {
    double saved = c.rateBeforeCutFromAbove();
    if (Double.isNaN(saved) || !rateControlled || higherClassActive(c, now)) {
      return false;
    }
    c.forgetRateBeforeCutFromAbove();
    c.takeSuppressIncrease();
    c.setRate(Math.max(c.rate(), saved), now);
    c.restartEstimate();
    return true;
  }

  /**
   * Divides lower class c's rate by {@code divisor} and marks the cut (no mark in the paper's
   * mode, nor a remembered rate to restore).
   */
  private static void cut(ClassController c, double divisor, long now) {
    c.rememberRateBeforeCutFromAbove();
    c.setRate(c.rate() / divisor, now);
    c.markCut(now);
  }

  private void report(
      ClassController c,
      long now,
      long count,
      long samp,
      double err,
      double rateBefore,
      Action action) {
    listener.onRound(
        new ControllerRound(
            endpoint,
            c.requestClass().name(),
            now,
            count,
            samp,
            c.p90().estimateNanos(),
            c.targetNanos(),
            err,
            rateBefore,
            c.rate(),
            action));
  }
}
