package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * The engine of the filter running in a servlet context, for the integration tests that count
 * its outcomes: the filter publishes its runtime there ({@link OverloadRuntime#ATTRIBUTE}), not
 * the engine. For a filter whose classes are the test's; a WAR's are read by reflection ({@link
 * EngineProbe}).
 */
public final class FilterEngine {

  private FilterEngine() {}

  /** The engine in force, or null when no filter runs in {@code context}. */
  public static OverloadEngine of(ServletContext context) {
    return context.getAttribute(OverloadRuntime.ATTRIBUTE) instanceof OverloadRuntime r
        ? r.engine()
        : null;
  }
}
