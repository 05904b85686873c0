package org.overloadcontrol.internal.capacity;

import java.util.List;
import org.apache.commons.math3.analysis.polynomials.PolynomialFunction;
import org.apache.commons.math3.fitting.PolynomialCurveFitter;
import org.apache.commons.math3.fitting.WeightedObservedPoint;
import org.apache.commons.math3.fitting.WeightedObservedPoints;

/**
 * A degree-3 polynomial fitted by least squares (Commons Math {@link PolynomialCurveFitter}) to
 * scaled (load, power ratio) points (WebQ §IV-B, Algorithm 1 step 8), with its residual and the
 * load at which it peaks (step 11). The load axis is divided by its largest value before
 * fitting so the normal equations stay well conditioned whatever the unit of hardness.
 */
final class PowerRatioCurve {

  /** The polynomial degree of the paper. */
  public static final int DEGREE = 3;

  private final PolynomialFunction polynomial;
  private final double loadScale;
  private final double minLoad;
  private final double maxLoad;
  private final double sumSquaredError;
  private final double sumSquaredDeviation;
  private final int pointCount;

  private PowerRatioCurve(
      PolynomialFunction polynomial,
      double loadScale,
      double minLoad,
      double maxLoad,
      double sse,
      double sst,
      int pointCount) {
    this.polynomial = polynomial;
    this.loadScale = loadScale;
    this.minLoad = minLoad;
    this.maxLoad = maxLoad;
    this.sumSquaredError = sse;
    this.sumSquaredDeviation = sst;
    this.pointCount = pointCount;
  }

  /**
   * Fits the curve to points {@code load[i], powerRatio[i]}.
   *
   * @throws IllegalArgumentException with fewer than {@code DEGREE + 2} points
   */
  public static PowerRatioCurve fit(double[] load, double[] powerRatio) {
    int n = load.length;
    if (n < DEGREE + 2) {
      throw new IllegalArgumentException("need at least " + (DEGREE + 2) + " points, got " + n);
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double x : load) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    double scale = max > 0 ? max : 1;
    WeightedObservedPoints points = new WeightedObservedPoints();
    double mean = 0;
    for (int i = 0; i < n; i++) {
      points.add(load[i] / scale, powerRatio[i]);
      mean += powerRatio[i] / n;
    }
    List<WeightedObservedPoint> list = points.toList();
    double[] coefficients = PolynomialCurveFitter.create(DEGREE).fit(list);
    PolynomialFunction p = new PolynomialFunction(coefficients);
    double sse = 0;
    double sst = 0;
    for (int i = 0; i < n; i++) {
      double e = powerRatio[i] - p.value(load[i] / scale);
      sse += e * e;
      double d = powerRatio[i] - mean;
      sst += d * d;
    }
    return new PowerRatioCurve(p, scale, min, max, sse, sst, n);
  }

  /** The fitted power ratio at {@code load}. */
  public double value(double load) {
    return polynomial.value(load / loadScale);
  }

  /**
   * The load in the fitted range at which the curve is highest: the capacity. When the
   * training never saturated the server the peak is the largest load seen, a safe under-estimate.
   */
  public double argmax() {
    double best = minLoad;
    double bestValue = value(minLoad);
    if (value(maxLoad) > bestValue) {
      best = maxLoad;
      bestValue = value(maxLoad);
    }
    PolynomialFunction slope = polynomial.polynomialDerivative();
    double[] c = slope.getCoefficients();
    double a = c.length > 2 ? c[2] : 0;
    double b = c.length > 1 ? c[1] : 0;
    double k = c[0];
    double[] roots;
    if (Math.abs(a) < 1e-300) {
      roots = Math.abs(b) < 1e-300 ? new double[0] : new double[] {-k / b};
    } else {
      double disc = b * b - 4 * a * k;
      roots =
          disc < 0
              ? new double[0]
              : new double[] {(-b + Math.sqrt(disc)) / (2 * a), (-b - Math.sqrt(disc)) / (2 * a)};
    }
    for (double r : roots) {
      double x = r * loadScale;
      if (x > minLoad && x < maxLoad && value(x) > bestValue) {
        best = x;
        bestValue = value(x);
      }
    }
    return best;
  }

  /** The sum of squared residuals over the fitted points. */
  public double sumSquaredError() {
    return sumSquaredError;
  }

  /** The residual relative to the spread of the points: 1 − R², free of units. */
  public double relativeError() {
    return sumSquaredDeviation > 0 ? sumSquaredError / sumSquaredDeviation : 1;
  }

  /** The root mean square residual, in power-ratio units (the paper's "regression error"). */
  public double rmsError() {
    return Math.sqrt(sumSquaredError / pointCount);
  }

  /** The smallest load fitted. */
  public double minLoad() {
    return minLoad;
  }

  /** The largest load fitted. */
  public double maxLoad() {
    return maxLoad;
  }
}
