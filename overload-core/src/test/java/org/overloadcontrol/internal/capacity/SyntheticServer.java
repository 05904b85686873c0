package org.overloadcontrol.internal.capacity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates epochs from a known truth: a processor-sharing server that completes
 * {@code serviceRate} subunits per second, whose request types take {@code hardness[i]}
 * subunits of {@code subunitSeconds} each. At scaled load x its mean response time for type i is
 * {@code H_i · s / (1 − x/μ)} (times 10 % Gaussian noise; counts have Poisson-like noise)
 * and everything offered completes, so the scaled power ratio
 * {@code x (1 − x/μ) / s} peaks at {@code x = μ / 2}: the true capacity.
 */
final class SyntheticServer {

  private final String[] types;
  private final double[] hardness;
  private final double subunitSeconds;
  private final double serviceRate;
  private final Random random;

  SyntheticServer(
      String[] types, double[] hardness, double subunitSeconds, double trueCapacity, long seed) {
    this.types = types;
    this.hardness = hardness;
    this.subunitSeconds = subunitSeconds;
    this.serviceRate = 2 * trueCapacity;
    this.random = new Random(seed);
  }

  /** One 10 s epoch at a random scaled load in [5 %, 95 %] of μ and a random mix. */
  EpochSample epoch() {
    double[] mix = new double[types.length];
    double total = 0;
    for (int i = 0; i < mix.length; i++) {
      mix[i] = 0.1 + random.nextDouble();
      total += mix[i];
    }
    double meanHardness = 0;
    for (int i = 0; i < mix.length; i++) {
      mix[i] /= total;
      meanHardness += mix[i] * hardness[i];
    }
    double scaledLoad = serviceRate * (0.05 + 0.9 * random.nextDouble());
    return epoch(scaledLoad / meanHardness, mix);
  }

  /** One 10 s epoch at {@code load} requests/s with type mix {@code mix}. */
  EpochSample epoch(double load, double[] mix) {
    double seconds = 10;
    long[] arrivals = new long[types.length];
    double work = 0;
    for (int i = 0; i < types.length; i++) {
      double mean = load * seconds * mix[i];
      arrivals[i] = Math.max(0, Math.round(mean + Math.sqrt(mean) * random.nextGaussian()));
      work += arrivals[i] * hardness[i];
    }
    double utilisation = Math.min(0.97, work / seconds / serviceRate);
    Map<String, EpochSample.TypeCounts> counts = new LinkedHashMap<>();
    for (int i = 0; i < types.length; i++) {
      double response =
          hardness[i] * subunitSeconds / (1 - utilisation) * (1 + 0.10 * random.nextGaussian());
      counts.put(
          types[i], new EpochSample.TypeCounts(arrivals[i], arrivals[i], arrivals[i] * response));
    }
    return new EpochSample(seconds, counts);
  }

  List<EpochSample> epochs(int count) {
    List<EpochSample> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      list.add(epoch());
    }
    return list;
  }
}
