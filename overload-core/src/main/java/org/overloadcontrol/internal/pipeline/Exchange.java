package org.overloadcontrol.internal.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.bandwidth.BandwidthTicket;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Answer;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.internal.virtualqueue.UrlEncodedForm;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueFrontEnd;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueVisit;
import org.overloadcontrol.internal.virtualqueue.VisitVerdict;

/**
 * One request under control, from its first {@link Step} to its one outcome, as every adapter
 * sees it. {@link RequestPipeline#start} builds it and decides {@link #step()}; a request the
 * adapter holds ({@code DELAY}, {@code WAIT}) is handed to the engine with {@link #hold}, and
 * its {@link Carrier} gets one later step; a client that leaves while held is taken out with
 * {@link #left}.
 *
 * <p>{@link #settle} settles the outcome with the engine once (the engine's {@code settle}
 * refuses a second report) and then, only for the call that settled it, tells each feature that
 * measures completions: the bandwidth ticket gets the response's bytes (Li &amp; Jamin §V: bytes
 * over response time) or is cancelled for a request that did not run, and the virtual queue
 * gets the response time of a request that passed it (WebQ §IV, the passive capacity estimate).
 *
 * <p>Thread-safety: the features are set on the request's own thread before anything can
 * settle it; {@code settle} and {@code left} may run on any thread, any number of times; the
 * delay's and the queue's compare-and-sets let exactly one of a timer, a resume, an expiry, a
 * client leaving and the stop act.
 */
public final class Exchange {

  /** The exchange of a request not under control ({@link Step.Kind#PASS}). */
  static final Exchange PASSING = new Exchange();

  /** The {@code returnedNanos} of a request timed when it settles: the clock is read then. */
  public static final long RETURNED_NOW = Long.MIN_VALUE;

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final VirtualQueueFrontEnd virtualQueue;
  private final OverloadRuntime runtime;
  private volatile BandwidthTicket ticket = BandwidthTicket.NONE;
  private volatile String queueType;
  private Step step;
  private List<String> setCookies = List.of();
  private ShapingDecision shaping;
  private volatile Carrier carrier;
  private volatile Delay delay;
  private volatile boolean left;
  private VirtualQueueFrontEnd formQueue;
  private VirtualQueueVisit formVisit;
  private VisitVerdict.Stop formStop;

  private Exchange() {
    this.engine = null;
    this.tag = null;
    this.virtualQueue = null;
    this.runtime = null;
    this.step = Step.PASS;
  }

  /**
   * An exchange for a request tagged and admitted without the pipeline (a test); it can be
   * finished but not held.
   *
   * @param virtualQueue the virtual queue told of completions, or null when there is none
   */
  Exchange(OverloadEngine engine, RequestTag tag, VirtualQueueFrontEnd virtualQueue) {
    this(engine, tag, virtualQueue, null);
  }

  Exchange(
      OverloadEngine engine,
      RequestTag tag,
      VirtualQueueFrontEnd virtualQueue,
      OverloadRuntime runtime) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.tag = Objects.requireNonNull(tag, "tag");
    this.virtualQueue = virtualQueue;
    this.runtime = runtime;
  }

  /**
   * What the application may read of the request ({@link OverloadContext#ATTRIBUTE}); null for a
   * request not under control.
   */
  public OverloadContext context() {
    return tag;
  }

  /** The engine's tag of the request; null for a request not under control. */
  RequestTag tag() {
    return tag;
  }

  /** What the adapter does first. */
  public Step step() {
    return step;
  }

  /**
   * {@code Set-Cookie} values for the response of the request if it runs (a session admitted
   * now, a used queue token cleared); a refusal or an {@code ANSWER} carries only its own. Add
   * them with {@link StepResponses#ofRun}.
   */
  public List<String> setCookies() {
    return setCookies;
  }

  /**
   * Why and for how long the request was refused, as the refusal hooks receive it: read after a
   * {@code REJECT}, once the engine has recorded the reason ({@code admission-rate} when it gave
   * none: the token bucket refuses without one), with the status the engine gives it.
   */
  public Rejection rejection() {
    RejectionReason reason = tag.reason();
    return new Rejection(
        tag.endpoint(),
        tag.requestClass(),
        reason == null ? RejectionReason.ADMISSION_RATE : reason,
        Duration.ofNanos(tag.retryAfterNanos()),
        engine.rejectionStatus(reason));
  }

  /** Whether a feature measures the response's bytes: report them to {@link #settle}. */
  public boolean countsBytes() {
    return ticket != BandwidthTicket.NONE;
  }

  /** The request passed the virtual queue as a request of {@code type}. */
  void passedQueue(String type) {
    this.queueType = type;
  }

  /** The request is shaped: its bytes and time are reported to {@code shaped}. */
  void shaped(BandwidthTicket shaped) {
    this.ticket = Objects.requireNonNull(shaped, "ticket");
  }

  Exchange first(Step first) {
    this.step = first;
    return this;
  }

  void setCookie(String value) {
    if (setCookies.isEmpty()) {
      setCookies = new ArrayList<>(2);
    }
    setCookies.add(value);
  }

  void keepForm(VirtualQueueFrontEnd queue, VirtualQueueVisit visit, VisitVerdict.Stop stop) {
    this.formQueue = queue;
    this.formVisit = visit;
    this.formStop = stop;
  }

  /**
   * For an {@code ANSWER} that should keep a browser's form (WebQ's waiting page re-posts it):
   * the most body bytes to read, or −1 when there is no form to keep. The adapter reads the
   * url-encoded fields its own way (at most this many bytes) and writes
   * {@link StepResponses#answerKeeping}; the step's own answer (send the form again) is the
   * fallback.
   */
  public int formMaxBytes() {
    return formQueue == null ? -1 : formQueue.repostMaxBytes();
  }

  /**
   * The waiting page holding {@code fields}, the form read after a {@code formMaxBytes() >= 0};
   * null fields (too large, malformed, unreadable) give the step's fallback answer.
   */
  Answer answerKeeping(List<Map.Entry<String, String>> fields) {
    if (formQueue == null) {
      throw new IllegalStateException("no form to keep");
    }
    return formQueue.answer(formVisit, formStop, fields);
  }

  /**
   * {@link #answerKeeping} of a url-encoded form body read whole, as a servlet reads one; a null
   * body (larger than {@link #formMaxBytes}) or a malformed one gives the step's fallback answer.
   */
  Answer answerKeepingBody(byte[] body, String charsetName) {
    return answerKeeping(body == null ? null : UrlEncodedForm.parse(body, charsetName));
  }

  void delayFor(ShapingDecision shaping) {
    this.shaping = shaping;
  }

  /**
   * The longest the engine may hold the request after a {@code DELAY} or {@code WAIT} (its
   * delay, then the longest wait in a queue): a container's own timeout set beyond it is only a
   * safety net that never races the engine's timers.
   */
  public long heldAtMostNanos() {
    ShapingDecision s = shaping;
    return (s == null ? 0L : s.delayNanos()) + engine.queueSettings().longestMaxWaitNanos();
  }

  /**
   * The adapter holds the request now, without a thread (after a {@code DELAY} or a
   * {@code WAIT} step): the engine starts its delay or queues it, and {@code later} gets one
   * {@code RUN} or {@code REJECT}, possibly before this returns. Register for the client leaving
   * ({@link #left}) before calling this.
   *
   * @throws IllegalStateException if the first step was not {@code DELAY} or {@code WAIT}
   */
  public void hold(Carrier later) {
    this.carrier = Objects.requireNonNull(later, "carrier");
    switch (step.kind()) {
      case DELAY -> {
        delay =
            runtime.delay(
                engine,
                tag,
                shaping,
                new Delay.Target() {
                  @Override
                  public void delayEnded() {
                    afterDelay();
                  }

                  @Override
                  public void cutShort() {
                    later.carry(Step.EXPIRED);
                  }
                });
        if (left) {
          delay.cut(RejectionReason.ABANDONED);
        }
      }
      case WAIT -> enqueue();
      default -> throw new IllegalStateException("nothing to hold after a " + step.kind());
    }
  }

  /** The delay is over, on the timer's thread: admission, as if the request had just come. */
  private void afterDelay() {
    switch (engine.arrive(tag)) {
      case ADMIT -> carrier.carry(Step.RUN);
      case WAIT -> enqueue();
      default -> carrier.carry(Step.REJECTED);
    }
  }

  private void enqueue() {
    Carrier later = carrier;
    boolean queued =
        engine.enqueue(
            tag,
            new Waiter.Listener() {
              @Override
              public void resumed(Waiter waiter) {
                later.carry(Step.RUN);
              }

              @Override
              public void expired(Waiter waiter) {
                later.carry(Step.EXPIRED);
              }
            });
    if (!queued) {
      later.carry(Step.REJECTED);
    } else if (left && engine.abandon(tag)) {
      // The client left between the hold and the queue.
      later.carry(Step.EXPIRED);
    }
  }

  /**
   * The client left, or the container gave up on the request, while it was held: it leaves its
   * delay or queue (counted abandoned) and its carrier gets {@code REJECT}, settled
   * {@code EXPIRED}. Returns false when it was no longer held (running, or already decided).
   */
  public boolean left() {
    if (tag == null) {
      return false;
    }
    left = true;
    Delay held = delay;
    if (held != null && held.cut(RejectionReason.ABANDONED)) {
      return true;
    }
    Carrier later = carrier;
    if (later != null && engine.abandon(tag)) {
      later.carry(Step.EXPIRED);
      return true;
    }
    return false;
  }

  /**
   * The adapter could not carry out a step it was given (the container would not suspend or
   * dispatch the request: it is stopping, or the response ended): the engine records
   * {@code reason} and the permit, if one is held, comes back when the adapter settles the
   * returned step's outcome after answering 503.
   *
   * @param reason {@code no-async} when it could not be suspended, {@code shutdown} when it
   *     could not be run
   */
  public Step notCarried(RejectionReason reason) {
    engine.reject(tag, reason);
    return reason == RejectionReason.NO_ASYNC ? Step.REJECTED : Step.EXPIRED;
  }

  /**
   * The adapter runs the application for this admitted request now, on the current thread
   * (right before the chain, the next handler or the resource method): the engine reads the
   * thread's CPU time for a sampled request ({@link OverloadEngine#running}).
   */
  public void running() {
    if (tag != null) {
      engine.running(tag);
    }
  }

  /**
   * The application returned the thread of this running request with its response not done (it
   * went async): the adapter calls this when the application's call returns and it will settle
   * the outcome later. Under a concurrency limit the request's permit then lapses after a while
   * ({@link OverloadEngine#detached}); harmless when the outcome is already settled.
   */
  public void detached() {
    if (tag != null) {
      engine.detached(tag);
    }
  }

  /**
   * Reports how a request that ran ended: {@code COMPLETED}, or {@code FAILED} when the
   * application threw or its response failed.
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return as {@link #settle(Outcome, long)}
   */
  public boolean settleRun(boolean failed, long bytes) {
    return settle(failed ? Outcome.FAILED : Outcome.COMPLETED, bytes, RETURNED_NOW);
  }

  /**
   * As {@link #settleRun(boolean, long)} for a resumed request whose application returned at
   * {@code returnedNanos} ({@link #readClock()} then, or {@link #RETURNED_NOW}), before its
   * container completed the async cycle: the time the container took to complete it is not the
   * request's.
   */
  public boolean settleRun(boolean failed, long bytes, long returnedNanos) {
    return settle(failed ? Outcome.FAILED : Outcome.COMPLETED, bytes, returnedNanos);
  }

  /** The engine's clock now, for {@link #settleRun(boolean, long, long)}. */
  public long readClock() {
    return engine.ticker().read();
  }

  /**
   * Reports how a request that did not run ended: with the outcome of {@code step}, a
   * {@code REJECT} or an {@code ANSWER} (or the step {@link #notCarried} gave).
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return as {@link #settle(Outcome, long)}
   */
  public boolean settle(Step step, long bytes) {
    return settle(step.outcome(), bytes);
  }

  /** The outcome settled so far, for a log line: its name, or "null" while none is. */
  public String outcomeText() {
    return String.valueOf(tag.outcome());
  }

  /**
   * Marks the request whose {@link org.overloadcontrol.OverloadContext} is {@code context} as
   * the one that completes its session (an order confirmed); nothing when {@code context} is not
   * a controlled request's (the adapter did not see it, or it was null).
   */
  public static void completeSession(Object context) {
    if (context instanceof RequestTag tag) {
      tag.completeSession();
    }
  }

  /**
   * Reports how the request ended.
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return true if this call settled the outcome, false if it had been reported already (or
   *     the request is not under control)
   */
  public boolean settle(Outcome outcome, long bytes) {
    return settle(outcome, bytes, RETURNED_NOW);
  }

  private boolean settle(Outcome outcome, long bytes, long returnedNanos) {
    if (tag == null || !engine.beginSettle(tag, outcome)) {
      return false;
    }
    // The bytes before the outcome is counted: whoever sees the count sees them measured.
    if (outcome.executed()) {
      ticket.complete(Math.max(0L, bytes));
    } else {
      ticket.cancel();
    }
    engine.endSettle(tag, outcome, returnedNanos);
    if (outcome.executed()) {
      String type = queueType;
      if (type != null && virtualQueue != null) {
        virtualQueue.complete(
            type, engine.ticker().read() - tag.arrivalNanos(), outcome == Outcome.COMPLETED);
      }
    }
    return true;
  }
}
