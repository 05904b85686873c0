package org.overloadcontrol.internal.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.QualityLevel;
import org.overloadcontrol.degrade.QualityRound;
import org.overloadcontrol.degrade.QualityRound.Action;

/** The quality controller's rules, one period at a time, against a fake admission switch. */
class QualityControllerTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1000 * MS;
  private static final long TARGET = 500 * MS;

  /** A switch the test reads and steers. */
  static final class FakeSwitch implements AdmissionSwitch {
    boolean enabled = true;
    boolean limiting;
    double restartedAt = Double.NaN;
    int enableCount;
    int disableCount;

    @Override
    public boolean enabled() {
      return enabled;
    }

    @Override
    public void enable(double throughputPerSecond, long nowNanos) {
      enabled = true;
      restartedAt = throughputPerSecond;
      enableCount++;
    }

    @Override
    public boolean raise(double throughputPerSecond, long nowNanos) {
      if (throughputPerSecond <= restartedAt) {
        return false;
      }
      restartedAt = throughputPerSecond;
      return true;
    }

    @Override
    public void disable() {
      enabled = false;
      disableCount++;
    }

    @Override
    public boolean limiting(long periodNanos) {
      return limiting;
    }
  }

  private final FakeSwitch admission = new FakeSwitch();
  private final List<QualityRound> rounds = new ArrayList<>();
  private long now = 1_000 * SECOND;

  private QualityController controller(DecreaseRule rule, double step, DegradeMode mode) {
    EndpointDegradeSettings s =
        new EndpointDegradeSettings("search", TARGET, 0.2, rule, step, 0.05, 0.9, SECOND, mode);
    return new QualityController(s, admission, rounds::add, now);
  }

  /** One period in which {@code count} requests each took {@code responseTime}. */
  private QualityRound period(QualityController c, int count, long responseTime) {
    for (int i = 0; i < count; i++) {
      c.record(responseTime);
    }
    now += SECOND;
    return c.tick(now);
  }

  @Test
  void startsAtFullQualityWithAdmissionOff() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    assertThat(c.quality()).isEqualTo(1.0);
    assertThat(admission.enabled).isFalse();
  }

  @Test
  void runsOncePerPeriodOnly() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    c.record(2 * TARGET);
    assertThat(c.tick(now + 999 * MS)).isNull();
    assertThat(c.quality()).isEqualTo(1.0);
    assertThat(c.tick(now + SECOND).action()).isEqualTo(Action.LOWER);
  }

  @Test
  void multiplicativeCutsByTheStepUntilTheMinimum() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    double expected = 1.0;
    for (int i = 0; i < 7; i++) {
      QualityRound r = period(c, 50, 600 * MS);
      expected *= 0.8;
      assertThat(r.action()).isEqualTo(Action.LOWER);
      assertThat(c.quality()).isCloseTo(expected, within(1e-12));
    }
    // 0.8^7 = 0.21; the next cut would be 0.168, clamped to q_min.
    assertThat(period(c, 50, 600 * MS).action()).isEqualTo(Action.LOWER);
    assertThat(c.quality()).isEqualTo(0.2);
  }

  @Test
  void additiveCutsByTheSameAmountAtEveryLevel() {
    QualityController c = controller(DecreaseRule.ADDITIVE, 0.3, DegradeMode.COMBINED);
    period(c, 50, 600 * MS);
    assertThat(c.quality()).isCloseTo(0.7, within(1e-12));
    period(c, 50, 600 * MS);
    assertThat(c.quality()).isCloseTo(0.4, within(1e-12));
    period(c, 50, 600 * MS);
    assertThat(c.quality()).isEqualTo(0.2);
  }

  @Test
  void p90NotMeanDecides() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    // 85 fast and 15 slow: the mean is under the target but the 90th percentile is over.
    for (int i = 0; i < 85; i++) {
      c.record(50 * MS);
    }
    QualityRound r = period(c, 15, 2 * TARGET);
    assertThat(r.p90Nanos()).isGreaterThan(TARGET);
    assertThat(r.action()).isEqualTo(Action.LOWER);
  }

  @Test
  void combinedModeSwitchesAdmissionOnAtMinimumAndOffWhenItNoLongerLimits() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    while (c.quality() > 0.2) {
      period(c, 50, 600 * MS);
    }
    assertThat(admission.enabled).isFalse();
    // At q_min and still over: admission on, restarted at the period's throughput (40/s).
    QualityRound on = period(c, 40, 600 * MS);
    assertThat(on.action()).isEqualTo(Action.ADMISSION_ON);
    assertThat(on.admissionEnabled()).isTrue();
    assertThat(admission.restartedAt).isCloseTo(40.0, within(1e-9));
    assertThat(QualityLevel.of(c.quality(), c.minQuality())).isEqualTo(QualityLevel.MINIMAL);
    // Still over: nothing more to do.
    assertThat(period(c, 40, 600 * MS).action()).isEqualTo(Action.HOLD_AT_MIN);
    // Under the target because admission holds the load down: admission stays, quality too.
    admission.limiting = true;
    assertThat(period(c, 40, 300 * MS).action()).isEqualTo(Action.HOLD_ADMITTING);
    assertThat(c.quality()).isEqualTo(0.2);
    // The load fell below the buckets' rates: admission off first, quality rises after.
    admission.limiting = false;
    assertThat(period(c, 40, 300 * MS).action()).isEqualTo(Action.ADMISSION_OFF);
    assertThat(admission.enabled).isFalse();
    assertThat(c.quality()).isEqualTo(0.2);
    assertThat(period(c, 40, 300 * MS).action()).isEqualTo(Action.RAISE);
    assertThat(c.quality()).isCloseTo(0.25, within(1e-12));
    assertThat(admission.enableCount).isEqualTo(1);
  }

  @Test
  void atMinimumWithAdmissionOnTheBucketsFollowWhatTheBackloggedEndpointCompletes() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    while (c.quality() > 0.2) {
      period(c, 20, 600 * MS);
    }
    // The period that switches admission on completes requests admitted at higher quality:
    // 20/s, though the endpoint serves 71/s at q_min.
    assertThat(period(c, 20, 600 * MS).action()).isEqualTo(Action.ADMISSION_ON);
    assertThat(admission.restartedAt).isCloseTo(20.0, within(1e-9));
    // Its backlog keeps it busy and turns into q_min requests: the buckets follow it up.
    assertThat(period(c, 45, 600 * MS).action()).isEqualTo(Action.ADMISSION_RAISED);
    assertThat(period(c, 71, 600 * MS).action()).isEqualTo(Action.ADMISSION_RAISED);
    assertThat(admission.restartedAt).isCloseTo(71.0, within(1e-9));
    // Never down: a period that completed less leaves them where they are.
    assertThat(period(c, 60, 600 * MS).action()).isEqualTo(Action.HOLD_AT_MIN);
    assertThat(admission.restartedAt).isCloseTo(71.0, within(1e-9));
    assertThat(admission.enableCount).isEqualTo(1);
  }

  @Test
  void aloneModeNeverSwitchesAdmissionOn() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.ALONE);
    for (int i = 0; i < 20; i++) {
      period(c, 50, 5 * TARGET);
    }
    assertThat(c.quality()).isEqualTo(0.2);
    assertThat(admission.enabled).isFalse();
    assertThat(admission.enableCount).isZero();
    assertThat(rounds.get(rounds.size() - 1).action()).isEqualTo(Action.HOLD_AT_MIN);
  }

  @Test
  void raisesSlowlyUnderTheDeadBandAndHoldsInsideIt() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.5, DegradeMode.COMBINED);
    period(c, 50, 600 * MS);
    assertThat(c.quality()).isEqualTo(0.5);
    // 460 ms: under the target but above 0.9 x target: hold.
    assertThat(period(c, 50, 460 * MS).action()).isEqualTo(Action.HOLD);
    assertThat(c.quality()).isEqualTo(0.5);
    // Well under: +0.05 per period, reaching exactly 1 after ten periods and staying there.
    for (int i = 1; i <= 10; i++) {
      assertThat(period(c, 50, 100 * MS).action()).isEqualTo(Action.RAISE);
      assertThat(c.quality()).isCloseTo(0.5 + 0.05 * i, within(1e-9));
    }
    assertThat(c.quality()).isEqualTo(1.0);
    assertThat(period(c, 50, 100 * MS).action()).isEqualTo(Action.HOLD);
    assertThat(QualityLevel.of(c.quality(), c.minQuality())).isEqualTo(QualityLevel.FULL);
  }

  @Test
  void aPeriodWithoutSamplesChangesNothing() {
    QualityController c = controller(DecreaseRule.MULTIPLICATIVE, 0.2, DegradeMode.COMBINED);
    period(c, 50, 600 * MS);
    QualityRound idle = period(c, 0, 0);
    assertThat(idle.action()).isEqualTo(Action.NO_SAMPLES);
    assertThat(idle.changed()).isFalse();
    assertThat(c.quality()).isCloseTo(0.8, within(1e-12));
  }

  @Test
  void levelsAreFullReducedMinimal() {
    assertThat(QualityLevel.of(1.0, 0.2)).isEqualTo(QualityLevel.FULL);
    assertThat(QualityLevel.of(0.99, 0.2)).isEqualTo(QualityLevel.REDUCED);
    assertThat(QualityLevel.of(0.2 + 1e-12, 0.2)).isEqualTo(QualityLevel.MINIMAL);
    assertThat(QualityLevel.of(0.25, 0.2)).isEqualTo(QualityLevel.REDUCED);
    assertThat(QualityLevel.of(1.0, 1.0)).isEqualTo(QualityLevel.FULL);
  }
}
