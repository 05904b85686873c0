package org.overloadcontrol.internal.capacity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.overloadcontrol.base.OverloadLog;

/**
 * Capacity estimated passively (WebQ §IV): the server's own traffic, observed by the virtual
 * queue, is cut into epochs; after a training period the {@link CapacityEstimator} finds the
 * relative hardness of each request type and the capacity; afterwards every new epoch is scaled
 * with that hardness and compared with the fitted curve, and training starts again when the
 * epochs leave it (§IV-C).
 *
 * <p>States: {@code TRAINING} — capacity is {@code +∞}, nobody waits (§IV-B: "we set the server
 * capacity to a very high value, so that the wait time ... remains zero"), epochs are collected;
 * after {@code trainingEpochs} the estimate runs on the given executor (slow work, never on a
 * request thread). {@code SHAPING} — the estimate is in force; the last {@code changeWindow}
 * epochs' residuals from the curve are kept, and when their root mean square exceeds twice the
 * training fit's RMS residual, the state returns to {@code TRAINING}. The paper compares each
 * sample against that threshold; a window stops one noisy epoch (about 1 in 20 lies beyond 2σ)
 * from discarding a good estimate.
 *
 * <p>Concurrency: epochs arrive from {@link EpochRecorder} one at a time (its CAS emits each once)
 * but possibly on different threads, so {@link #offer} takes a lock (a {@link ReentrantLock}, since
 * it runs on a request thread, which may be virtual); it runs once per epoch.
 * The state read on the request path is one volatile field.
 */
public final class PassiveCapacity implements CapacitySource {

  private static final OverloadLog LOG = OverloadLog.get(PassiveCapacity.class);

  /** What the source is doing. */
  public enum State {
    TRAINING,
    ESTIMATING,
    SHAPING
  }

  private record Shaping(State state, double capacity, CapacityEstimate estimate) {}

  private final EpochRecorder recorder;
  private final CapacityEstimator estimator;
  private final Executor executor;
  private final int trainingEpochs;
  private final int changeWindow;
  private final List<EpochSample> training = new ArrayList<>();
  private final Deque<Double> residuals = new ArrayDeque<>();
  private final AtomicBoolean estimating = new AtomicBoolean();
  private final ReentrantLock lock = new ReentrantLock();
  private volatile Shaping shaping = new Shaping(State.TRAINING, Double.POSITIVE_INFINITY, null);
  private long estimateCount;

  /**
   * @param epochNanos the epoch length (the paper: 10 s)
   * @param trainingEpochs epochs collected before estimating (the paper: 84, about 14 min)
   * @param changeWindow epochs whose residuals are compared with the fit error
   * @param executor where the estimate runs
   */
  public PassiveCapacity(
      long epochNanos,
      int trainingEpochs,
      int changeWindow,
      CapacityEstimator estimator,
      Executor executor,
      long nowNanos) {
    if (trainingEpochs < PowerRatioCurve.DEGREE + 2) {
      throw new IllegalArgumentException(
          "trainingEpochs must be >= " + (PowerRatioCurve.DEGREE + 2) + ": " + trainingEpochs);
    }
    if (changeWindow < 1) {
      throw new IllegalArgumentException("changeWindow must be >= 1: " + changeWindow);
    }
    this.estimator = Objects.requireNonNull(estimator, "estimator");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.trainingEpochs = trainingEpochs;
    this.changeWindow = changeWindow;
    this.recorder = new EpochRecorder(epochNanos, nowNanos, this::offer);
  }

  @Override
  public double capacity(long nowNanos) {
    recorder.roll(nowNanos);
    return shaping.capacity;
  }

  @Override
  public double hardness(String type) {
    CapacityEstimate e = shaping.estimate;
    return e == null ? 1 : e.hardness().getOrDefault(type, 1.0);
  }

  @Override
  public void arrived(String type, long nowNanos) {
    recorder.arrived(type, nowNanos);
  }

  @Override
  public void completed(String type, long responseNanos, boolean success, long nowNanos) {
    if (success) {
      recorder.completed(type, responseNanos, nowNanos);
    } else {
      recorder.roll(nowNanos);
    }
  }

  /** The current state. */
  public State state() {
    return shaping.state;
  }

  /** The estimate in force, or null while training. */
  public CapacityEstimate estimate() {
    return shaping.estimate;
  }

  /** How many estimates have completed. */
  public long estimateCount() {
    lock.lock();
    try {
      return estimateCount;
    } finally {
      lock.unlock();
    }
  }

  /** Takes one finished epoch (from the recorder; tests may call it directly). */
  void offer(EpochSample sample) {
    lock.lock();
    try {
      Shaping now = shaping;
      switch (now.state) {
        case TRAINING -> {
          training.add(sample);
          if (training.size() >= trainingEpochs && estimating.compareAndSet(false, true)) {
            List<EpochSample> batch = List.copyOf(training);
            training.clear();
            shaping = new Shaping(State.ESTIMATING, Double.POSITIVE_INFINITY, null);
            executor.execute(() -> estimate(batch));
          }
        }
        case ESTIMATING -> training.add(sample);
        case SHAPING -> watch(now.estimate, sample);
        default -> throw new IllegalStateException(now.state.name());
      }
    } finally {
      lock.unlock();
    }
  }

  private void watch(CapacityEstimate estimate, EpochSample sample) {
    List<String> types = new ArrayList<>(estimate.hardness().keySet());
    ScaledSamples one = new ScaledSamples(types, List.of(sample));
    if (one.size() == 0) {
      return;
    }
    double[] h = new double[types.size()];
    for (int i = 0; i < h.length; i++) {
      h[i] = estimate.hardness().get(types.get(i));
    }
    double residual = one.scaledPowerRatio(0, h) - estimate.curve().value(one.scaledLoad(0, h));
    residuals.addLast(residual);
    if (residuals.size() > changeWindow) {
      residuals.removeFirst();
    }
    if (residuals.size() < changeWindow) {
      return;
    }
    double rms = Math.sqrt(residuals.stream().mapToDouble(r -> r * r).sum() / changeWindow);
    if (rms > 2 * estimate.curve().rmsError()) {
      LOG.warn(
          "virtual queue: the server's power ratio left the fitted curve (residual {} >"
              + " 2 x {}); capacity is re-estimated and nobody waits until then",
          rms,
          estimate.curve().rmsError());
      residuals.clear();
      training.clear();
      shaping = new Shaping(State.TRAINING, Double.POSITIVE_INFINITY, null);
    }
  }

  private void estimate(List<EpochSample> batch) {
    CapacityEstimate result = null;
    try {
      result = estimator.estimate(batch);
    } catch (RuntimeException e) {
      LOG.warn("virtual queue: capacity estimate failed ({}); training continues", e.toString());
    }
    lock.lock();
    try {
      estimating.set(false);
      if (result == null || !(result.capacity() > 0)) {
        shaping = new Shaping(State.TRAINING, Double.POSITIVE_INFINITY, null);
        return;
      }
      estimateCount++;
      training.clear();
      residuals.clear();
      shaping = new Shaping(State.SHAPING, result.capacity(), result);
      LOG.info(
          "virtual queue: capacity {} subunits/s, hardness {} ({} epochs)",
          String.format("%.1f", result.capacity()),
          Map.copyOf(result.hardness()),
          result.sampleCount());
    } finally {
      lock.unlock();
    }
  }
}
