package org.overloadcontrol.internal.capacity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.CMAESOptimizer;
import org.apache.commons.math3.random.MersenneTwister;

/**
 * WebQ's relative hardness and capacity estimation (Suresh et al., §IV-B, Algorithm 1), on
 * power-ratio samples collected over epochs while nothing was shaped.
 *
 * <p>Algorithm: start from hardness [1, 1, ...] in the box [1, 100]^n; for a candidate H, scale
 * every epoch (equations 4-7, {@link ScaledSamples}), drop the points whose scaled power ratio is
 * below {@code dropBelow} × the largest, fit a degree-3 polynomial ({@link PowerRatioCurve}) and
 * score H by the fit's residual; CMA-ES (Commons Math {@link CMAESOptimizer}) proposes the next
 * H. The capacity is the scaled load at which the best H's curve peaks.
 *
 * <p>Scale: multiplying H by λ multiplies scaled loads by λ and scaled power ratios by λ², so
 * the raw residual would always prefer the smallest H. We score the residual relative to the
 * spread of the points (1 − R²), which does not change with λ, and at the end divide H by its
 * smallest element, so the lightest type is one subunit (the paper reports 1 : 4.4).
 *
 * <p>Determinism: the optimiser draws from a {@link MersenneTwister} with a fixed seed, so the
 * same samples give the same estimate.
 */
public final class CapacityEstimator {

  /** The paper's search box for relative hardness. */
  public static final double MIN_HARDNESS = 1;

  public static final double MAX_HARDNESS = 100;

  private final double dropBelow;
  private final int maxEvaluations;
  private final long seed;

  /**
   * @param dropBelow points with a scaled power ratio below this fraction of the largest are
   *     left out of the fit (Algorithm 1 step 7); 0 keeps all
   * @param maxEvaluations the most curve fits one estimate may run
   * @param seed the optimiser's random seed
   */
  public CapacityEstimator(double dropBelow, int maxEvaluations, long seed) {
    if (!(dropBelow >= 0 && dropBelow < 1)) {
      throw new IllegalArgumentException("dropBelow must be in [0, 1): " + dropBelow);
    }
    if (maxEvaluations < 10) {
      throw new IllegalArgumentException("maxEvaluations must be >= 10: " + maxEvaluations);
    }
    this.dropBelow = dropBelow;
    this.maxEvaluations = maxEvaluations;
    this.seed = seed;
  }

  /** Defaults: drop points below 5 % of the peak, 3000 evaluations, seed 1. */
  public static CapacityEstimator defaults() {
    return new CapacityEstimator(0.05, 3000, 1);
  }

  /**
   * Estimates hardness and capacity from {@code samples}.
   *
   * @throws IllegalArgumentException when fewer than 5 epochs saw traffic
   */
  public CapacityEstimate estimate(List<EpochSample> samples) {
    TreeSet<String> names = new TreeSet<>();
    for (EpochSample s : samples) {
      s.types()
          .forEach(
              (type, c) -> {
                if (c.arrivals() > 0) {
                  names.add(type);
                }
              });
    }
    ScaledSamples scaled = new ScaledSamples(new ArrayList<>(names), samples);
    if (scaled.size() < PowerRatioCurve.DEGREE + 2) {
      throw new IllegalArgumentException(
          "need at least "
              + (PowerRatioCurve.DEGREE + 2)
              + " epochs with traffic, got "
              + scaled.size());
    }
    int n = names.size();
    double[] best = new double[n];
    Arrays.fill(best, 1);
    if (n > 1) {
      best = optimise(scaled, n);
    }
    double min = Arrays.stream(best).min().orElse(1);
    for (int i = 0; i < n; i++) {
      best[i] /= min;
    }
    PowerRatioCurve curve = curve(scaled, best);
    Map<String, Double> hardness = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      hardness.put(scaled.types().get(i), best[i]);
    }
    return new CapacityEstimate(hardness, curve.argmax(), curve, scaled.size());
  }

  private double[] optimise(ScaledSamples scaled, int n) {
    double[] lower = new double[n];
    double[] upper = new double[n];
    double[] start = new double[n];
    double[] sigma = new double[n];
    Arrays.fill(lower, MIN_HARDNESS);
    Arrays.fill(upper, MAX_HARDNESS);
    Arrays.fill(start, MIN_HARDNESS);
    Arrays.fill(sigma, (MAX_HARDNESS - MIN_HARDNESS) / 10);
    int population = Math.max(12, 4 + (int) (3 * Math.log(n)));
    // The optimiser's own result is its final mean; keep the best point it ever scored too,
    // which is also the answer when the evaluation budget runs out.
    double[] bestPoint = start.clone();
    double[] bestValue = {relativeResidual(scaled, start)};
    ObjectiveFunction objective =
        new ObjectiveFunction(
            h -> {
              double v = relativeResidual(scaled, h);
              if (v < bestValue[0]) {
                bestValue[0] = v;
                System.arraycopy(h, 0, bestPoint, 0, n);
              }
              return v;
            });
    CMAESOptimizer optimizer =
        new CMAESOptimizer(
            maxEvaluations / population, 0, true, 0, 0, new MersenneTwister(seed), false, null);
    try {
      PointValuePair result =
          optimizer.optimize(
              new MaxEval(maxEvaluations),
              objective,
              GoalType.MINIMIZE,
              new InitialGuess(start),
              new SimpleBounds(lower, upper),
              new CMAESOptimizer.Sigma(sigma),
              new CMAESOptimizer.PopulationSize(population));
      if (result.getValue() <= bestValue[0]) {
        return result.getPoint();
      }
    } catch (MathIllegalStateException e) {
      // Budget exhausted: the best point scored so far is the answer.
    }
    return bestPoint;
  }

  private double relativeResidual(ScaledSamples scaled, double[] hardness) {
    try {
      return curve(scaled, hardness).relativeError();
    } catch (IllegalArgumentException e) {
      return 1;
    }
  }

  private PowerRatioCurve curve(ScaledSamples scaled, double[] hardness) {
    int n = scaled.size();
    double[] x = new double[n];
    double[] y = new double[n];
    double peak = 0;
    for (int e = 0; e < n; e++) {
      x[e] = scaled.scaledLoad(e, hardness);
      y[e] = scaled.scaledPowerRatio(e, hardness);
      peak = Math.max(peak, y[e]);
    }
    int kept = 0;
    for (int e = 0; e < n; e++) {
      if (y[e] >= dropBelow * peak) {
        x[kept] = x[e];
        y[kept] = y[e];
        kept++;
      }
    }
    return PowerRatioCurve.fit(Arrays.copyOf(x, kept), Arrays.copyOf(y, kept));
  }
}
