package org.overloadcontrol.degrade;

/**
 * Observes the quality controllers. Called on the engine's periodic-task
 * thread, so an implementation must be quick and must not block.
 */
@FunctionalInterface
public interface QualityListener {

  /** No-op listener. */
  QualityListener NONE = round -> {};

  /** Called after every control period of every degradable endpoint. */
  void onRound(QualityRound round);
}
