package org.overloadcontrol.internal.pipeline;

/**
 * The adapter's side of a request it holds ({@link Step.Kind#DELAY} or {@link Step.Kind#WAIT}):
 * the engine hands it exactly one later step, {@link Step.Kind#RUN} (an execution permit is
 * held for it, or it needs none) or {@link Step.Kind#REJECT} (its wait expired, its queue was
 * full, admission refused it after its delay, its client left, or the stop), on whatever thread
 * decided: the caller of {@link Exchange#hold}, the timer, or the thread that released a permit.
 * An adapter runs the application on its container's own threads, never on that one.
 */
@FunctionalInterface
public interface Carrier {

  /** Carries out {@code later}, a {@code RUN} or a {@code REJECT}; must not throw. */
  void carry(Step later);
}
