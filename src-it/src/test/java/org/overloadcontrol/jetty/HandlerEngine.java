package org.overloadcontrol.jetty;

import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The engine of a running {@link OverloadHandler}, for the integration tests that count its
 * outcomes. In this package because the handler keeps its engine to itself.
 */
public final class HandlerEngine {

  private HandlerEngine() {}

  /** The engine of the configuration in force, or null when {@code handler} is stopped. */
  public static OverloadEngine of(OverloadHandler handler) {
    var runtime = handler.runtime();
    return runtime == null ? null : runtime.engine();
  }
}
