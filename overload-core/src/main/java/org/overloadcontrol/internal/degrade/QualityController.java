package org.overloadcontrol.internal.degrade;

import java.util.Objects;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.degrade.QualityRound;
import org.overloadcontrol.degrade.QualityRound.Action;

/**
 * The quality controller of one degradable endpoint (Welsh &amp; Culler 2003, §3.4 and §4.5):
 * keeps a quality q in [q_min, 1] that the application reads to do less work, lowers it while
 * the endpoint's 90th-percentile response time is over its target and raises it slowly while it
 * is under, and, combined with admission control, hands over to admission control only when even
 * q_min misses the target.
 *
 * <p>Each period (default 1 s), with p90 the 90th percentile of the response times completed
 * in that period and T the target:
 * <pre>
 *   p90 &gt; T,  q &gt; q_min        : q = max(q_min, q·(1 − step))   (or q − step, additive)
 *   p90 &gt; T,  q = q_min        : combined mode, admission off → admission on, its buckets
 *                                restarted at this period's throughput; admission on → its
 *                                buckets raised to this period's throughput if it is more
 *   p90 &lt; raiseBelow·T, admission on : admission off once it no longer limits (every class
 *                                arrives slower than its bucket rate); q stays at q_min until then
 *   p90 &lt; raiseBelow·T, admission off: q = min(1, q + raiseStep)
 *   otherwise                  : hold
 * </pre>
 * A period without samples changes nothing. In combined mode admission control starts off; in
 * alone mode it is off for good.
 *
 * <p>Why its own p90 rather than the admission controller's estimate: the paper's stage "monitors
 * its own 90th-percentile response time"; the admission estimates are per class, smoothed
 * (α = 0.7) and updated on their own schedule (every nreq samples), so reading them would add
 * lag and mix schedules. Here one HdrHistogram {@link Recorder} per endpoint holds exactly the
 * samples of one period, across all classes, against the endpoint's target.
 *
 * <p>Why raise the buckets after the restart. The period in which admission switches on
 * completes requests admitted while quality was still falling, at a higher cost each, so its
 * throughput is under what the endpoint serves at q_min: {@code DegradationIT}'s combined mode
 * restarted at 20–27/s an endpoint that serves 71/s at q_min, and the paper's additive
 * increase (about +1.6/s per round) climbed from there for the rest of the spike. While the
 * p90 is still over the target at q_min, the backlog keeps the endpoint busy, so each period's
 * completions are its capacity at the mix it is draining, rising to its capacity at q_min as
 * the backlog turns into q_min requests: the buckets follow it up, never down (cuts stay the
 * admission rounds' job), and only until the first period that does not raise them or whose
 * p90 is under the target: from then on the endpoint completes what the buckets admit, and
 * raising them to it would undo the rounds' cuts.
 *
 * <p>Why "no longer limits" rather than "p90 under target" to switch admission off: with
 * admission on, p90 under target is what admission control achieves, not a sign that load fell;
 * switching off then would let the whole load back in every other period. Admission stops
 * limiting when its AIMD rounds have raised the rates above the offered load, i.e. when the load
 * really fell.
 *
 * <p>Concurrency: request threads call {@link #record} (the recorder's wait-free writer) and
 * read {@link #quality} (a volatile); {@link #tick} runs on the engine's periodic task only,
 * one call at a time, and alone touches the rest.
 */
public final class QualityController {

  private static final double EPSILON = 1e-9;

  private final EndpointDegradeSettings settings;
  private final AdmissionSwitch admission;
  private final QualityListener listener;
  private final Recorder recorder = new Recorder(3);
  private volatile double quality = 1.0;
  // Period state: touched by tick only.
  private Histogram recycled;
  private long periodStartNanos;

  /** Since admission came on, until the first period that does not raise its buckets. */
  private boolean raising;

  /**
   * @param settings the endpoint's settings
   * @param admission the endpoint's admission control, switched by this controller
   * @param listener told about every period
   * @param nowNanos the ticker reading at creation: the first period starts now
   */
  public QualityController(
      EndpointDegradeSettings settings,
      AdmissionSwitch admission,
      QualityListener listener,
      long nowNanos) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.admission = Objects.requireNonNull(admission, "admission");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.periodStartNanos = nowNanos;
    // Both modes start at full quality with admission off: degradation acts first.
    admission.disable();
  }

  public EndpointDegradeSettings settings() {
    return settings;
  }

  /** The current quality in [q_min, 1]. */
  public double quality() {
    return quality;
  }

  /** The minimum quality q_min. */
  public double minQuality() {
    return settings.minQuality();
  }

  /** Records the response time of one request that ran at this endpoint. */
  public void record(long responseTimeNanos) {
    recorder.recordValue(Math.max(0L, responseTimeNanos / 1000L));
  }

  /**
   * Called by the engine's periodic task; runs a control period when one has elapsed since the
   * last.
   *
   * @return the period's round, or null when no period was due
   */
  public QualityRound tick(long nowNanos) {
    long elapsed = nowNanos - periodStartNanos;
    if (elapsed < settings.periodNanos()) {
      return null;
    }
    periodStartNanos = nowNanos;
    QualityRound round = period(nowNanos, elapsed);
    listener.onRound(round);
    return round;
  }

  private QualityRound period(long now, long elapsedNanos) {
    recycled = recorder.getIntervalHistogram(recycled);
    long count = recycled.getTotalCount();
    // Always asked, so that the switch measures arrivals over exactly this period.
    boolean limiting = admission.limiting(elapsedNanos);
    double before = quality;
    if (count == 0) {
      return round(now, 0, -1, before, Action.NO_SAMPLES);
    }
    long p90 = recycled.getValueAtPercentile(90.0) * 1000L;
    long target = settings.targetNanos();
    Action action;
    if (p90 > target) {
      if (before > settings.minQuality() + EPSILON) {
        quality =
            Math.max(settings.minQuality(), settings.decrease().lower(before, settings.step()));
        action = Action.LOWER;
      } else if (settings.mode() == DegradeMode.COMBINED && !admission.enabled()) {
        admission.enable(count * 1e9 / elapsedNanos, now);
        raising = true;
        action = Action.ADMISSION_ON;
      } else if (raising
          && admission.enabled()
          && admission.raise(count * 1e9 / elapsedNanos, now)) {
        action = Action.ADMISSION_RAISED;
      } else {
        // The backlog no longer completes faster than the buckets admit: what it completes
        // from now on is what they let in, and raising them to it would undo their cuts.
        raising = false;
        action = Action.HOLD_AT_MIN;
      }
    } else if (p90 < settings.raiseBelow() * target) {
      raising = false;
      if (admission.enabled()) {
        if (limiting) {
          action = Action.HOLD_ADMITTING;
        } else {
          admission.disable();
          action = Action.ADMISSION_OFF;
        }
      } else if (before < 1.0 - EPSILON) {
        quality = Math.min(1.0, before + settings.raiseStep());
        action = Action.RAISE;
      } else {
        action = Action.HOLD;
      }
    } else {
      action = Action.HOLD;
    }
    return round(now, count, p90, before, action);
  }

  private QualityRound round(long now, long count, long p90, double before, Action action) {
    return new QualityRound(
        settings.endpoint(),
        now,
        count,
        p90,
        settings.targetNanos(),
        before,
        quality,
        admission.enabled(),
        action);
  }
}
