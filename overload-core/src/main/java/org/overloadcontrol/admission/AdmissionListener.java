package org.overloadcontrol.admission;

/**
 * Observes the admission controllers. Every method has a no-op default, so a listener
 * implements only what it needs; the engine calls it on the thread that ran the controller,
 * so an implementation must be quick and must not block.
 */
public interface AdmissionListener {

  /** No-op listener. */
  AdmissionListener NONE = new AdmissionListener() {};

  /** Called after every controller round, including those that changed nothing. */
  default void onRound(ControllerRound round) {}

  /** Called after every window of a concurrency group's limit, including unchanged ones. */
  default void onLimitRound(LimitRound round) {}
}
