package org.overloadcontrol.internal.engine;

import org.overloadcontrol.limiter.Permit;

/**
 * The permit of a limiter that learns from the engine's own measurement rather than from its
 * permits: the engine neither keeps it on the request nor reports to it, so the built-in rate
 * and concurrency paths pay nothing for the permit protocol. Its instances are markers told
 * apart by identity: {@link #PERMIT} admits, {@link ExecutionPermit#WAIT} says "wait".
 */
final class Unreported implements Permit {

  static final Permit PERMIT = new Unreported();

  Unreported() {}

  @Override
  public void onSuccess(long responseNanos) {}

  @Override
  public void onDropped() {}

  @Override
  public void onIgnore() {}
}
