package org.overloadcontrol.internal.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * Epoch samples laid out for fast re-scaling under a guessed hardness vector H (WebQ §IV-B,
 * equations 4 to 7). For an epoch with load x (requests/s), type mix m_i, goodput g_i
 * (requests/s of type i) and mean response time r:
 *
 * <pre>
 *   x_s = x · Σ m_i H_i          scaled load, subunits/s              (4)
 *   g_s = Σ g_i H_i              scaled goodput                       (5)
 *   r_s = r / Σ m_i H_i          scaled response time                 (6)
 *   y_s = g_s / r_s              scaled power ratio                   (7)
 * </pre>
 *
 * <p>Equation 6 as printed divides the <em>sum</em> of response times by Σ m_i H_i; we use
 * their mean, the reading under which the scaled power ratio depends on the scaled load alone
 * (for a processor-sharing server r = Σ m_i H_i · s / (1 − ρ), so r_s = s / (1 − ρ)), which is
 * the property the paper's Figure 4 shows and the fit relies on.
 */
final class ScaledSamples {

  private final List<String> types;
  private final double[] load;
  private final double[][] mix;
  private final double[][] goodput;
  private final double[] meanResponse;

  ScaledSamples(List<String> types, List<EpochSample> samples) {
    this.types = List.copyOf(types);
    List<EpochSample> usable = new ArrayList<>();
    for (EpochSample s : samples) {
      if (s.arrivals() > 0 && s.completions() > 0) {
        usable.add(s);
      }
    }
    int n = usable.size();
    load = new double[n];
    mix = new double[n][types.size()];
    goodput = new double[n][types.size()];
    meanResponse = new double[n];
    for (int e = 0; e < n; e++) {
      EpochSample s = usable.get(e);
      long arrivals = s.arrivals();
      long completions = s.completions();
      load[e] = arrivals / s.seconds();
      double responseSum = 0;
      for (int i = 0; i < types.size(); i++) {
        EpochSample.TypeCounts c = s.types().get(types.get(i));
        if (c == null) {
          continue;
        }
        mix[e][i] = (double) c.arrivals() / arrivals;
        goodput[e][i] = c.completions() / s.seconds();
        responseSum += c.responseSecondsSum();
      }
      meanResponse[e] = responseSum / completions;
    }
  }

  int size() {
    return load.length;
  }

  List<String> types() {
    return types;
  }

  /** Scaled load of epoch {@code e} under {@code hardness}, equation 4. */
  double scaledLoad(int e, double[] hardness) {
    return load[e] * meanHardness(e, hardness);
  }

  /** Scaled power ratio of epoch {@code e} under {@code hardness}, equations 5 to 7. */
  double scaledPowerRatio(int e, double[] hardness) {
    double scaledGoodput = 0;
    for (int i = 0; i < hardness.length; i++) {
      scaledGoodput += goodput[e][i] * hardness[i];
    }
    double scaledResponse = meanResponse[e] / meanHardness(e, hardness);
    return scaledGoodput / scaledResponse;
  }

  private double meanHardness(int e, double[] hardness) {
    double sum = 0;
    for (int i = 0; i < hardness.length; i++) {
      sum += mix[e][i] * hardness[i];
    }
    return sum;
  }
}
