package org.overloadcontrol.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The p90 estimator alone (Welsh &amp; Culler 2003, §3.2): windows of samples closed by count
 * or by time, each window's 90th percentile, the smoothed estimate, stale marks and the
 * sampling probability. Time is a plain number handed in, so every run is the same.
 */
class P90EstimatorTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000_000_000L;
  private static final double ALPHA = 0.7;

  private final long[] counts = new long[3];

  /** Windows of a second, by time alone. */
  private static P90Estimator byTime(long now) {
    return new P90Estimator(SECOND, 0, ALPHA, false, now);
  }

  @Test
  void aWindowsP90IsTheNinetiethPercentileOfItsSamples() {
    P90Estimator p90 = byTime(0);
    assertThat(p90.closeWindow(10 * MS, counts)).isEqualTo(-1);
    assertThat(p90.lastSampleP90Nanos()).isEqualTo(-1);
    for (int i = 1; i <= 100; i++) {
      p90.record(i * MS, 10 * MS, 20 * MS);
    }
    long samp = p90.closeWindow(SECOND, counts);
    // Two significant digits: within 1 % of 90 ms.
    assertThat((double) samp).isCloseTo(90.0 * MS, within(0.9 * MS));
    assertThat(p90.lastSampleP90Nanos()).isEqualTo(samp);
    assertThat(counts[0]).isEqualTo(100);
    assertThat(counts[1]).isZero();
    assertThat(counts[2]).isEqualTo(SECOND - 10 * MS);
    // 100 samples over 0.99 s.
    assertThat(p90.completionsPerSecond()).isCloseTo(100 / 0.99, within(1e-6));
    // Closing takes the samples: the next window starts empty.
    assertThat(p90.closeWindow(2 * SECOND, counts)).isEqualTo(-1);
    assertThat(p90.lastSampleP90Nanos()).isEqualTo(samp);
  }

  @Test
  void theEstimateStartsAtTheFirstSampleThenSmoothsWithAlphaAndRestartsWhenAsked() {
    P90Estimator p90 = byTime(0);
    assertThat(p90.estimateNanos()).isEqualTo(-1);
    assertThat(p90.fold(-1)).isNaN();
    assertThat(p90.estimateNanos()).isEqualTo(-1);

    assertThat(p90.fold(100 * MS)).isEqualTo(100.0 * MS);
    // cur = 0.7·100 + 0.3·200 = 130 ms
    assertThat(p90.fold(200 * MS)).isCloseTo(130.0 * MS, within(1.0));
    assertThat(p90.estimateNanos()).isCloseTo(130 * MS, within(1L));
    // A window without samples changes nothing, and keeps a restart for one with them.
    p90.restartEstimate();
    assertThat(p90.fold(-1)).isCloseTo(130.0 * MS, within(1.0));
    assertThat(p90.fold(20 * MS)).isEqualTo(20.0 * MS);
    assertThat(p90.estimateNanos()).isEqualTo(20 * MS);
    // Spent: the next window smooths again.
    assertThat(p90.fold(120 * MS)).isCloseTo(50.0 * MS, within(1.0));
  }

  @Test
  void countedWindowsAreDueAtNreqSamplesAndTimedOnesAtTheTimeout() {
    P90Estimator counted = new P90Estimator(SECOND, 100, ALPHA, false, 0);
    P90Estimator timed = byTime(0);
    long now = 50 * MS;
    for (int i = 1; i < 100; i++) {
      assertThat(counted.record(10 * MS, now - 10 * MS, now)).isFalse();
      assertThat(timed.record(10 * MS, now - 10 * MS, now)).isFalse();
    }
    assertThat(counted.due(now)).isFalse();
    // The hundredth sample (a multiple of the count's stride) asks for the window's close.
    assertThat(counted.record(10 * MS, now - 10 * MS, now)).isTrue();
    assertThat(counted.due(now)).isTrue();
    assertThat(timed.record(10 * MS, now - 10 * MS, now)).isFalse();
    assertThat(timed.due(now)).isFalse();
    assertThat(timed.dueByTime(SECOND - 1)).isFalse();
    assertThat(timed.dueByTime(SECOND)).isTrue();

    counted.closeWindow(now, counts);
    assertThat(counts[0]).isEqualTo(100);
    // Within MIN_WINDOW_NANOS of the close, a full count does not ask for another.
    for (int i = 0; i < 100; i++) {
      assertThat(counted.record(10 * MS, now, now + MS)).isFalse();
    }
    assertThat(counted.due(now + MS)).isTrue();
    assertThat(counted.record(10 * MS, now, now + P90Estimator.MIN_WINDOW_NANOS)).isFalse();
    for (int i = 0; i < 2; i++) {
      counted.record(10 * MS, now, now + P90Estimator.MIN_WINDOW_NANOS);
    }
    assertThat(counted.record(10 * MS, now, now + P90Estimator.MIN_WINDOW_NANOS)).isTrue();
  }

  @Test
  void aStaleMarkKeepsEarlierArrivalsOutUntilItIsCleared() {
    P90Estimator marking = new P90Estimator(SECOND, 0, ALPHA, true, 0);
    long mark = 100 * MS;
    marking.markStale(mark);
    marking.record(900 * MS, mark - MS, 200 * MS);
    marking.record(20 * MS, mark + MS, 200 * MS);
    assertThat(marking.closeWindow(SECOND, counts)).isCloseTo(20 * MS, within(MS / 5));
    assertThat(counts[0]).isEqualTo(1);
    assertThat(counts[1]).isEqualTo(1);

    // Stale only: no p90, but the stale count tells it from an empty window.
    marking.record(900 * MS, mark - MS, SECOND + MS);
    assertThat(marking.closeWindow(2 * SECOND, counts)).isEqualTo(-1);
    assertThat(counts[1]).isEqualTo(1);

    marking.clearStaleMark(2 * SECOND);
    marking.record(900 * MS, mark - MS, 2 * SECOND + MS);
    assertThat(marking.closeWindow(3 * SECOND, counts)).isCloseTo(900 * MS, within(9 * MS));
    assertThat(counts[1]).isZero();

    // Built without marksStale, a mark changes nothing.
    P90Estimator plain = byTime(0);
    plain.markStale(mark);
    plain.record(900 * MS, mark - MS, 200 * MS);
    assertThat(plain.closeWindow(SECOND, counts)).isCloseTo(900 * MS, within(9 * MS));
    assertThat(counts[1]).isZero();
  }

  @Test
  void aboveTheTargetRateOnlyASampleIsRecordedAndCountsAreScaledBack() {
    P90Estimator p90 = byTime(0);
    // A whole second at 100,000 completions a second, all recorded (p = 1 so far).
    int perSecond = 100_000;
    for (int i = 1; i <= perSecond; i++) {
      long now = i * (SECOND / perSecond);
      p90.record(5 * MS, now - 5 * MS, now);
    }
    p90.closeWindow(SECOND, counts);
    assertThat(counts[0]).isEqualTo(perSecond);
    assertThat(p90.completionsPerSecond()).isCloseTo(perSecond, within(1e-6));
    double p = (double) P90Estimator.TARGET_SAMPLES_PER_SECOND / perSecond;
    assertThat(p90.samplingProbability()).isCloseTo(p, within(1e-6));

    // The draw from an arrival's number: deterministic, and about p of the arrivals.
    int drawn = 0;
    for (int n = 0; n < perSecond; n++) {
      if (p90.drawSample(n, 0)) {
        drawn++;
      }
    }
    assertThat(p90.drawSample(12_345, 0)).isEqualTo(p90.drawSample(12_345, 0));
    // Binomial(100,000, 0.02): 2,000 ± 44; five standard deviations.
    assertThat(drawn).isBetween(1_780, 2_220);

    // A window of recorded samples at p means 1/p as many completions.
    for (int i = 0; i < 2_000; i++) {
      p90.recordDrawn(5 * MS, SECOND, SECOND + i * (SECOND / 2_000));
    }
    p90.closeWindow(2 * SECOND, counts);
    assertThat(p90.completionsPerSecond()).isCloseTo(perSecond, within(1.0));

    // 30 recorded samples at p = 0.02 in a second are 1,500 completions, under the target
    // rate: p is 1 again, and every completion is recorded.
    for (int i = 0; i < 30; i++) {
      p90.recordDrawn(5 * MS, 2 * SECOND, 2 * SECOND + i * MS);
    }
    p90.closeWindow(3 * SECOND, counts);
    assertThat(p90.samplingProbability()).isEqualTo(1.0);
    assertThat(p90.drawSample(12_345, 0)).isTrue();
  }
}
