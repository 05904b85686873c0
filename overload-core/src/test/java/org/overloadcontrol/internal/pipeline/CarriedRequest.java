package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * An adapter in miniature, for the pipeline's tests: carries out each step as a container would
 * (a RUN "runs" until the test ends it with {@link #complete}), and records every outcome it
 * reported and how many the exchange took.
 */
class CarriedRequest implements Carrier {
  final Exchange exchange;
  final OverloadEngine engine;
  final List<Step.Kind> steps = new ArrayList<>();
  Outcome outcome;
  int finishes;
  boolean running;
  private final long bytes;

  /** Starts a request of endpoint "e" on the pipeline now in force, carrying its first step. */
  CarriedRequest(OverloadRuntime runtime, RequestView view, long bytes) {
    this.bytes = bytes;
    this.engine = runtime.engine();
    this.exchange = runtime.pipeline().start(view, "e");
    carry(exchange.step());
  }

  @Override
  public void carry(Step step) {
    steps.add(step.kind());
    switch (step.kind()) {
      case PASS -> {}
      case RUN -> running = true;
      case DELAY, WAIT -> exchange.hold(this);
      case ANSWER, REJECT -> end(step.outcome());
    }
  }

  /** The application's response is done. */
  void complete() {
    assertThat(running).isTrue();
    running = false;
    end(Outcome.COMPLETED);
  }

  private void end(Outcome o) {
    if (exchange.settle(o, bytes)) {
      outcome = o;
      finishes++;
    }
  }
}
