package org.overloadcontrol.servlet;

import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The engine of a running {@link OverloadFilter}, for the shop's contract test, which reads the
 * classes and settings the filter made of the shop's registrations. In this package because the
 * filter keeps its engine to itself.
 */
public final class FilterEngine {

  private FilterEngine() {}

  /** The engine of the configuration in force, or null when {@code filter} is not running. */
  public static OverloadEngine of(OverloadFilter filter) {
    var runtime = filter.runtime();
    return runtime == null ? null : runtime.engine();
  }
}
