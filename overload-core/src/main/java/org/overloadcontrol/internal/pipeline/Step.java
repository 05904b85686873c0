package org.overloadcontrol.internal.pipeline;

import java.util.Objects;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Answer;

/**
 * What the engine's pipeline tells an adapter to do with a request, one step at a time
 * (docs/design.md, request life cycle). {@link RequestPipeline#start} gives the first step;
 * a request held for a {@code DELAY} or a {@code WAIT} gets one more through its
 * {@link Carrier}. Every controlled step ends in one {@link Exchange#settle}.
 *
 * <p>An adapter reads only {@link #kind()}: what a step writes and settles with stays in this
 * package ({@link StepResponses}, {@link Exchange}), so no adapter holds the engine's answer or
 * outcome types.
 */
public final class Step {

  /** The six things an adapter may be told to do. */
  public enum Kind {
    /** Not under control (a bypass path, a status servlet): run it, report nothing. */
    PASS,
    /**
     * Write the step's answer as it is (a virtual-queue page, a bandwidth refusal), then
     * settle with the step's outcome.
     */
    ANSWER,
    /**
     * Hold the request without a thread for its bandwidth delay (Li &amp; Jamin §V), then call
     * {@link Exchange#hold}; the carrier gets {@code RUN} or {@code REJECT} later.
     */
    DELAY,
    /** Run the application now; settle with {@code COMPLETED} or {@code FAILED}. */
    RUN,
    /**
     * Hold the request without a thread in its class's wait queue (LIFO-Pri, Singhmar et al.
     * 2004), then call {@link Exchange#hold}; the carrier gets {@code RUN} or {@code REJECT}.
     */
    WAIT,
    /**
     * Answer through the rejection handler (503 + {@code Retry-After}; the tag says why), then
     * settle with the step's outcome.
     */
    REJECT
  }

  static final Step PASS = new Step(Kind.PASS, null, null);
  static final Step RUN = new Step(Kind.RUN, null, null);
  static final Step DELAY = new Step(Kind.DELAY, null, null);
  static final Step WAIT = new Step(Kind.WAIT, null, null);
  static final Step REJECTED = new Step(Kind.REJECT, Outcome.REJECTED, null);
  static final Step EXPIRED = new Step(Kind.REJECT, Outcome.EXPIRED, null);

  private final Kind kind;
  private final Outcome outcome;
  private final Answer answer;

  private Step(Kind kind, Outcome outcome, Answer answer) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.outcome = outcome;
    this.answer = answer;
  }

  /** What to do. */
  public Kind kind() {
    return kind;
  }

  /**
   * The outcome to settle with after a {@code REJECT} or an {@code ANSWER}; null for the others
   * (the application's run decides it).
   */
  Outcome outcome() {
    return outcome;
  }

  /** The response to write for an {@code ANSWER}, else null. */
  Answer answer() {
    return answer;
  }

  @Override
  public String toString() {
    return "Step[" + kind + (outcome == null ? "" : ", " + outcome) + "]";
  }

  static Step answer(Answer answer, Outcome outcome) {
    return new Step(Kind.ANSWER, outcome, answer);
  }
}
