package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client watch's states, without a container: each way a held request's connection ends. */
class ConnectionWatchTest {

  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger givenBack = new AtomicInteger();
  private final AtomicInteger left = new AtomicInteger();

  private ConnectionWatch watchReading(int byteRead) {
    return new ConnectionWatch(
        () -> {
          reads.incrementAndGet();
          return byteRead;
        },
        givenBack::incrementAndGet,
        left::incrementAndGet);
  }

  @Test
  void theEndOfTheStreamMeansTheClientLeftOnce() {
    ConnectionWatch watch = watchReading(-1);
    watch.readable();
    watch.readable();
    watch.closed();
    assertThat(left).hasValue(1);
    assertThat(reads).hasValue(1);
    // Nothing left to give back: the interest fired.
    assertThat(watch.stop()).isFalse();
    assertThat(givenBack).hasValue(0);
  }

  @Test
  void aClosedConnectionMeansTheClientLeftOnce() {
    ConnectionWatch watch = watchReading(-1);
    watch.closed();
    watch.closed();
    watch.readable();
    assertThat(left).hasValue(1);
    assertThat(reads).hasValue(0);
  }

  @Test
  void aStoppedWatchGivesTheInterestBackAndHearsNothingAfter() {
    ConnectionWatch watch = watchReading(-1);
    assertThat(watch.stop()).isFalse();
    assertThat(givenBack).hasValue(1);
    // The cancelled interest fails; a late wake-up finds the watch stopped.
    watch.closed();
    watch.readable();
    assertThat(left).hasValue(0);
    assertThat(reads).hasValue(0);
    assertThat(watch.stop()).isFalse();
    assertThat(givenBack).hasValue(1);
  }

  @Test
  void aByteOfAPipelinedRequestKeepsTheClientAndClosesTheConnectionAfter() {
    ConnectionWatch watch = watchReading(1);
    watch.readable();
    assertThat(left).hasValue(0);
    assertThat(watch.stop()).as("the response must close the connection").isTrue();
    assertThat(givenBack).hasValue(0);
  }

  @Test
  void aWakeUpWithNothingToReadEndsTheWatchQuietly() {
    ConnectionWatch watch = watchReading(0);
    watch.readable();
    watch.closed();
    assertThat(left).hasValue(0);
    assertThat(watch.stop()).isFalse();
    assertThat(givenBack).hasValue(0);
  }
}
