package org.overloadcontrol.simulation;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.overloadcontrol.simulation.Workloads.Kind;
import org.overloadcontrol.simulation.Workloads.Second;

/**
 * Prints what the default refuses below and at capacity on each of {@link Workloads}' kinds
 * (seconds 5–20 of three seeds, clients that leave at a refusal), beside the least any admission
 * could refuse there and still hold the target: the best threshold on the number in an M/M/c/K
 * queue (Poisson arrivals, exponential service, as the simulated cores), the lowest loss whose
 * admitted requests' p90 response time is within the target. At 1 × capacity a queue of
 * Poisson arrivals is unstable, so some refusals are the price of the target; the bound says
 * how many. Run with {@code -Dsimulation.belowCapacity=true}.
 */
@EnabledIfSystemProperty(named = "simulation.belowCapacity", matches = "true")
class BelowCapacityTableTest {

  @Test
  void printsRefusalsBesideTheBound() {
    System.out.println(
        "workload | load | refused | worst 1-s client p90 ms | least refused (M/M/c/K)");
    for (Kind kind : Kind.values()) {
      for (double load : new double[] {0.5, 0.8, 0.9, 1.0}) {
        long arrived = 0;
        long refused = 0;
        double worstP90 = 0;
        for (int seed = 1; seed <= 3; seed++) {
          List<Second> seconds =
              new Workloads(kind, false, seed, keys()).offer(load, 20).drain().seconds();
          for (Second s : seconds.subList(5, Math.min(20, seconds.size()))) {
            arrived += s.arrived();
            refused += s.refused();
            worstP90 = Math.max(worstP90, s.clientP90Millis());
          }
        }
        System.out.printf(
            Locale.ROOT,
            "%s | %.1f× | %.2f %% | %.0f | %s%n",
            kind,
            load,
            100.0 * refused / arrived,
            worstP90,
            bound(kind, load));
      }
    }
  }

  /** {@code -Dsimulation.maxLimit=N} tries another ceiling than the adapters' default. */
  private static Map<String, String> keys() {
    String ceiling = System.getProperty("simulation.maxLimit");
    return ceiling == null ? Map.of() : Map.of("admission.maxLimit", ceiling);
  }

  /**
   * The least loss of a threshold on the bottleneck, in words: the cores (CPU, API: the wait
   * after them is unbounded, so their share of the target is what is left after it) or the
   * pool (POOL, its 20 ms calls taken as exponential); the WAR's threads are bounded by the
   * ceiling, not a queue, so it has none.
   */
  private static String bound(Kind kind, double load) {
    double targetSeconds = kind.targetMillis / 1_000.0;
    return switch (kind) {
      case CPU -> least(load * kind.capacity(), 1e9 / kind.cpu, Workloads.CORES, targetSeconds);
      case API ->
          least(
              load * kind.capacity(),
              1e9 / kind.cpu,
              Workloads.CORES,
              targetSeconds - kind.wait / 1e9);
      case POOL -> least(load * kind.capacity(), 1e9 / kind.wait, kind.waitServers, targetSeconds);
      case WAR -> "–";
    };
  }

  private static String least(double lambda, double mu, int servers, double target) {
    // The admitted p90 grows with the threshold and the loss falls: the largest threshold
    // within the target is the least loss. Bisection on it.
    int low = servers;
    int high = 4_000;
    if (withinShare(lambda, mu, servers, low, target) < 0.9) {
      return "none holds";
    }
    while (high - low > 1) {
      int mid = (low + high) >>> 1;
      if (withinShare(lambda, mu, servers, mid, target) >= 0.9) {
        low = mid;
      } else {
        high = mid;
      }
    }
    if (high == 4_000) {
      return "0 % (no threshold needed)";
    }
    double loss = occupancy(lambda, mu, servers, low)[low];
    return String.format(Locale.ROOT, "%.2f %% (K = %d)", 100 * loss, low);
  }

  /** The stationary distribution of the number in an M/M/c/K queue. */
  private static double[] occupancy(double lambda, double mu, int c, int k) {
    double[] p = new double[k + 1];
    p[0] = 1;
    double sum = 1;
    for (int n = 1; n <= k; n++) {
      p[n] = p[n - 1] * lambda / (Math.min(n, c) * mu);
      sum += p[n];
    }
    for (int n = 0; n <= k; n++) {
      p[n] /= sum;
    }
    return p;
  }

  /**
   * The share of admitted requests whose response (wait, then service) is within {@code t}: an
   * arrival that finds n ≥ c waits n − c + 1 departures at rate c·μ (an Erlang), then its own
   * exponential service; the convolution is summed on a grid of the service time.
   */
  private static double withinShare(double lambda, double mu, int c, int k, double t) {
    double[] p = occupancy(lambda, mu, c, k);
    double admitted = 1 - p[k];
    double rate = c * mu;
    int steps = 200;
    double h = t / steps;
    double[] within = new double[k + 1];
    for (int j = 0; j < steps; j++) {
      double s = (j + 0.5) * h;
      double density = mu * Math.exp(-mu * s) * h;
      double x = rate * (t - s);
      // Erlang(m, rate) ≤ t − s is 1 − Σ_{i<m} Poisson(i; x): summed for every m at once.
      double term = Math.exp(-x);
      double below = 0;
      for (int m = 1; m <= k - c + 1; m++) {
        below += term;
        within[m] += density * (1 - below);
        term *= x / m;
      }
    }
    double share = 0;
    for (int n = 0; n < k; n++) {
      double service = 1 - Math.exp(-mu * t);
      share += p[n] / admitted * (n < c ? service : within[n - c + 1]);
    }
    return share;
  }
}
