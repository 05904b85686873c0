package org.overloadcontrol.it.experiments.workloads;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A work servlet passes {@link Stall} at once when no stall was ever started. */
class StallTest {

  @Test
  void withoutAStallWorkDoesNotWait() {
    // A first version compared against Long.MIN_VALUE, whose difference overflowed into a
    // wait of centuries for every request.
    assertTimeoutPreemptively(Duration.ofSeconds(2), Stall::awaitEnd);
  }
}
