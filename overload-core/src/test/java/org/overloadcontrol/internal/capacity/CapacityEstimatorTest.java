package org.overloadcontrol.internal.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityEstimatorTest {

  @Test
  void paperWorkloadTwoTypesEstimatedWithinTenPercentFrom84Epochs() {
    // WebQ §VI-C: 23 ms and 97 ms requests (1 : 4.2), capacity 140 subunits/s, 84 samples.
    SyntheticServer server =
        new SyntheticServer(new String[] {"browse", "book"}, new double[] {1, 4.2}, 0.023, 140, 42);
    CapacityEstimate estimate = CapacityEstimator.defaults().estimate(server.epochs(84));

    System.out.printf(
        "paper workload: hardness %s, capacity %.1f (truth 1:4.2, 140)%n",
        estimate.hardness(), estimate.capacity());
    assertThat(estimate.hardness().get("browse")).isEqualTo(1.0);
    assertThat(estimate.hardness().get("book")).isCloseTo(4.2, within(0.42));
    assertThat(estimate.capacity()).isCloseTo(140, within(14.0));
    assertThat(estimate.sampleCount()).isEqualTo(84);
  }

  @Test
  void anotherTruthGivesAnotherEstimateSoAConstantCannotPass() {
    SyntheticServer server =
        new SyntheticServer(new String[] {"search", "pay"}, new double[] {2.5, 1}, 0.040, 90, 7);
    CapacityEstimate estimate = CapacityEstimator.defaults().estimate(server.epochs(84));

    System.out.printf(
        "second truth: hardness %s, capacity %.1f (truth 2.5:1, 90)%n",
        estimate.hardness(), estimate.capacity());
    assertThat(estimate.hardness().get("pay")).isEqualTo(1.0);
    assertThat(estimate.hardness().get("search")).isCloseTo(2.5, within(0.25));
    assertThat(estimate.capacity()).isCloseTo(90, within(9.0));
  }

  @Test
  void threeTypes() {
    // §VI-C: 23, 50 and 97 ms.
    SyntheticServer server =
        new SyntheticServer(
            new String[] {"a", "b", "c"}, new double[] {1, 50.0 / 23, 97.0 / 23}, 0.023, 140, 3);
    CapacityEstimate estimate = CapacityEstimator.defaults().estimate(server.epochs(89));

    System.out.printf(
        "three types: hardness %s, capacity %.1f (truth 1:2.17:4.22, 140)%n",
        estimate.hardness(), estimate.capacity());
    assertThat(estimate.capacity()).isCloseTo(140, within(14.0));
  }

  @Test
  void wrongHardnessFitsWorseThanTheTruth() {
    SyntheticServer server =
        new SyntheticServer(new String[] {"browse", "book"}, new double[] {1, 4.2}, 0.023, 140, 42);
    ScaledSamples samples = new ScaledSamples(List.of("book", "browse"), server.epochs(84));
    double truth = fit(samples, new double[] {4.2, 1}).relativeError();
    double equal = fit(samples, new double[] {1, 1}).relativeError();
    assertThat(truth).isLessThan(equal / 5);
  }

  @Test
  void homogeneousWorkloadNeedsNoSearch() {
    SyntheticServer server =
        new SyntheticServer(new String[] {"only"}, new double[] {1}, 0.010, 200, 5);
    CapacityEstimate estimate = CapacityEstimator.defaults().estimate(server.epochs(40));
    assertThat(estimate.hardness()).containsEntry("only", 1.0);
    assertThat(estimate.capacity()).isCloseTo(200, within(20.0));
  }

  @Test
  void tooFewEpochsAreRefused() {
    SyntheticServer server =
        new SyntheticServer(new String[] {"only"}, new double[] {1}, 0.010, 200, 5);
    assertThatThrownBy(() -> CapacityEstimator.defaults().estimate(server.epochs(3)))
        .hasMessageContaining("at least 5 epochs");
  }

  private static PowerRatioCurve fit(ScaledSamples s, double[] h) {
    double[] x = new double[s.size()];
    double[] y = new double[s.size()];
    for (int e = 0; e < s.size(); e++) {
      x[e] = s.scaledLoad(e, h);
      y[e] = s.scaledPowerRatio(e, h);
    }
    return PowerRatioCurve.fit(x, y);
  }
}
