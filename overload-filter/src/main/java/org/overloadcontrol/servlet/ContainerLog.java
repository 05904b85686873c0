package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import org.overloadcontrol.base.OverloadLog;

/**
 * Writes a message the operator must see at start both through SLF4J and through
 * {@link ServletContext#log}, the container's own log of the web application. SLF4J alone is
 * not enough: a WAR without an SLF4J provider (or without {@code slf4j-api}) loses the line, and
 * Tomcat shows a filter's failed {@code init} on its console only as "One or more Filters failed
 * to start", with the details in its per-host log ({@code logs/localhost.<date>.log}), where
 * {@code ServletContext.log} writes. Where each container puts it: README.md, "Configuration".
 */
final class ContainerLog {

  private static final OverloadLog LOG = OverloadLog.get(OverloadFilter.class);

  private ContainerLog() {}

  /** A configuration error that stops the filter's start. */
  static void error(ServletContext context, String message) {
    // Without an SLF4J provider OverloadLog would write to the container's log too: once is
    // enough, unless the container's log refused it.
    if (!containerLog(context, message) || OverloadLog.slf4jBound()) {
      LOG.error("{}", message);
    }
  }

  /** A notice: the filter works, but not as its configuration suggests. */
  static void warn(ServletContext context, String message) {
    if (!containerLog(context, message) || OverloadLog.slf4jBound()) {
      LOG.warn("{}", message);
    }
  }

  /**
   * Sends the library's own lines to the web application's container log while SLF4J has no
   * provider (see {@link OverloadLog}); the handle stops it when the filter is destroyed.
   */
  static AutoCloseable fallbackFor(ServletContext context) {
    return OverloadLog.containerSink(message -> containerLog(context, message));
  }

  /** Whether the container's log took the message. */
  private static boolean containerLog(ServletContext context, String message) {
    if (context == null) {
      return false;
    }
    try {
      context.log(message);
      return true;
    } catch (RuntimeException e) {
      // A context that cannot log (stopping, or a test double) must not hide the message: the
      // caller writes it through OverloadLog instead.
      LOG.debug("overload-control: ServletContext.log failed", e);
      return false;
    }
  }
}
