package org.overloadcontrol.admission;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.engine.RequestClass;

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
 * <p>Concurrency: a round runs on whichever request thread first sees nreq samples or the
 * timeout for its class. Rounds of one endpoint are serialised by {@link #roundGuard}, taken by
 * compare-and-set and never waited for: a thread that loses the race goes on with its request,
 * and the samples it left start the next round. Request threads only take tokens and record
 * samples, which are lock-free.
 */
public final class EndpointAdmissionController {

  private final String endpoint;
  private final Function<RequestClass, ClassSettings> settings;
  private final AdmissionListener listener;
  private final ConcurrentHashMap<String, ClassController> byName = new ConcurrentHashMap<>();
  private final AtomicBoolean roundGuard = new AtomicBoolean();
  private final long[] countScratch = new long[1];
  /** The classes seen at this endpoint, highest rank first; replaced, never mutated. */
  private volatile ClassController[] ordered = new ClassController[0];
  private volatile boolean admissionEnabled = true;

  /**
   * @param endpoint the endpoint's name
   * @param settings the settings of each class at this endpoint
   * @param listener told about every round
   */
  public EndpointAdmissionController(String endpoint,
      Function<RequestClass, ClassSettings> settings, AdmissionListener listener) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  public String endpoint() {
    return endpoint;
  }

  /** The controller of {@code requestClass} at this endpoint, created on first use. */
  public ClassController forClass(RequestClass requestClass, long now) {
    ClassController existing = byName.get(requestClass.name());
    return existing != null ? existing : create(requestClass, now);
  }

  private ClassController create(RequestClass requestClass, long now) {
    synchronized (byName) {
      ClassController existing = byName.get(requestClass.name());
      if (existing != null) {
        return existing;
      }
      ClassController created = new ClassController(endpoint, requestClass,
          settings.apply(requestClass), now);
      ClassController[] next = Arrays.copyOf(ordered, ordered.length + 1);
      next[next.length - 1] = created;
      Arrays.sort(next, (a, b) -> a.requestClass().compareTo(b.requestClass()));
      ordered = next;
      byName.put(requestClass.name(), created);
      return created;
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
  }

  /**
   * Decides admission for one arrival of class {@code c}: runs a round first if its timeout
   * has passed, then takes a token when the class is controlled.
   */
  public boolean tryAdmit(ClassController c, long now) {
    if (c.due(now)) {
      runRoundIfFree(c, now);
    }
    return !c.settings().controlled() || !admissionEnabled || c.tryAcquire(now);
  }

  /** Records the response time of one request of class {@code c} that ran. */
  public void record(ClassController c, long responseTimeNanos, long now) {
    if (c.record(responseTimeNanos) || c.due(now)) {
      runRoundIfFree(c, now);
    }
  }

  private void runRoundIfFree(ClassController c, long now) {
    if (!roundGuard.compareAndSet(false, true)) {
      return;
    }
    try {
      if (c.due(now)) {
        round(c, now);
      }
    } finally {
      roundGuard.set(false);
    }
  }

  /** One controller round for class c; caller holds the round guard. */
  private void round(ClassController c, long now) {
    ControllerParameters p = c.settings().parameters();
    double rateBefore = c.rate();
    long samp = c.takeSampleP90(now, countScratch);
    long count = countScratch[0];
    if (samp < 0) {
      report(c, now, 0, -1, Double.NaN, rateBefore, Action.NO_SAMPLES);
      return;
    }
    c.smooth(samp);
    if (!c.settings().controlled()) {
      report(c, now, count, samp, Double.NaN, rateBefore, Action.MEASURED_ONLY);
      return;
    }
    double err = c.error();
    boolean suppressed = c.takeSuppressIncrease();
    Action action;
    if (err > p.errD()) {
      action = missedTarget(c, now);
    } else {
      c.resetLc();
      if (err < p.errI()) {
        if (suppressed) {
          action = Action.INCREASE_SUPPRESSED;
        } else {
          c.setRate(c.rate() + (-(err - p.cI())) * p.adjI(), now);
          action = Action.INCREASE;
        }
      } else {
        action = Action.HOLD;
      }
    }
    report(c, now, count, samp, err, rateBefore, action);
  }

  private Action missedTarget(ClassController c, long now) {
    ControllerParameters p = c.settings().parameters();
    ClassController[] all = ordered;
    boolean anyLower = false;
    boolean allLowerAtMin = true;
    for (ClassController other : all) {
      if (other.requestClass().rank() < c.requestClass().rank()) {
        anyLower = true;
        allLowerAtMin &= other.atRateMin();
      }
    }
    if (!anyLower) {
      c.setRate(c.rate() / p.adjD(), now);
      return Action.DECREASE;
    }
    for (ClassController other : all) {
      if (other.requestClass().rank() < c.requestClass().rank()) {
        if (!allLowerAtMin) {
          other.setRate(other.rate() / p.adjLoD(), now);
        }
        other.suppressNextIncrease();
      }
    }
    if (!allLowerAtMin) {
      return Action.DECREASE_LOWER;
    }
    if (c.incrementLc() >= p.lcThresh()) {
      c.setRate(c.rate() / p.adjD(), now);
      return Action.DECREASE;
    }
    return Action.COUNT_LOWER_AT_MIN;
  }

  private void report(ClassController c, long now, long count, long samp, double err,
      double rateBefore, Action action) {
    listener.onRound(new ControllerRound(endpoint, c.requestClass().name(), now, count, samp,
        c.estimateNanos(), c.targetNanos(), err, rateBefore, c.rate(), action));
  }
}
