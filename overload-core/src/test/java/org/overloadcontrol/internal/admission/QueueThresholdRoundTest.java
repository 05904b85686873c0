package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Haboob's queue-threshold round (Welsh et al. 2001, §5.1.4) alone, without a clock. */
class QueueThresholdRoundTest {

  private static final long TARGET = 100_000_000L;

  @Test
  void aMissDividesTheThreshold() {
    assertThat(QueueThresholdController.next(20, TARGET + 1, TARGET, 1, 2.0, 100)).isEqualTo(10);
    assertThat(QueueThresholdController.next(5, 3 * TARGET, TARGET, 1, 1.5, 100)).isEqualTo(3);
  }

  @Test
  void aMetTargetGrowsItByTheStep() {
    assertThat(QueueThresholdController.next(20, TARGET, TARGET, 2, 2.0, 100)).isEqualTo(22);
    assertThat(QueueThresholdController.next(20, 1, TARGET, 1, 2.0, 100)).isEqualTo(21);
  }

  @Test
  void itStaysWithinOneAndTheMaximum() {
    assertThat(QueueThresholdController.next(1, 10 * TARGET, TARGET, 1, 2.0, 100)).isEqualTo(1);
    assertThat(QueueThresholdController.next(100, 0, TARGET, 5, 2.0, 100)).isEqualTo(100);
    assertThat(
            QueueThresholdController.next(
                QueueThresholdController.MAX_THRESHOLD,
                0,
                TARGET,
                1,
                2.0,
                QueueThresholdController.MAX_THRESHOLD))
        .isEqualTo(QueueThresholdController.MAX_THRESHOLD);
  }
}
