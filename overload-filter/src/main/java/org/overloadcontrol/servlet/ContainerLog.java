package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import org.overloadcontrol.base.OverloadLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a message the operator must see at start both through SLF4J and through
 * {@link ServletContext#log}, the container's own log of the web application. SLF4J alone is
 * not enough: a WAR without an SLF4J provider loses the line, and Tomcat shows a filter's failed
 * {@code init} on its console only as "One or more Filters failed to start", with the details in
 * its per-host log ({@code logs/localhost.<date>.log}), where {@code ServletContext.log} writes.
 * Where each container puts it: README.md, "Configuration".
 */
final class ContainerLog {

  private static final Logger LOG = LoggerFactory.getLogger(OverloadFilter.class);

  private ContainerLog() {}

  /** A configuration error that stops the filter's start. */
  static void error(ServletContext context, String message) {
    LOG.error("{}", message);
    containerLog(context, message);
  }

  /** A notice: the filter works, but not as its configuration suggests. */
  static void warn(ServletContext context, String message) {
    LOG.warn("{}", message);
    containerLog(context, message);
  }

  /**
   * Sends the library's own lines to the web application's container log while SLF4J has no
   * provider (see {@link OverloadLog}); the handle stops it when the filter is destroyed.
   */
  static AutoCloseable fallbackFor(ServletContext context) {
    return OverloadLog.containerSink(message -> containerLog(context, message));
  }

  private static void containerLog(ServletContext context, String message) {
    if (context == null) {
      return;
    }
    try {
      context.log(message);
    } catch (RuntimeException e) {
      // A context that cannot log (stopping, or a test double) must not hide the message's
      // cause: SLF4J has it already.
      LOG.debug("overload-control: ServletContext.log failed", e);
    }
  }
}
