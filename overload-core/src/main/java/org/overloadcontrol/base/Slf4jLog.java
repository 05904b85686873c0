package org.overloadcontrol.base;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * The SLF4J side of {@link OverloadLog}, the only class of the core that names an SLF4J type.
 * SLF4J is optional: {@link OverloadLog} loads this class only when {@code slf4j-api} is on the
 * class path, so a web application without it gets no linkage error, only the fallback.
 */
final class Slf4jLog {

  private final Logger logger;

  Slf4jLog(String name) {
    this.logger = LoggerFactory.getLogger(name);
  }

  /** Whether SLF4J has a provider; without one it hands out its no-operation loggers. */
  static boolean bound() {
    return !(LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory);
  }

  void debug(String format, Object[] args) {
    logger.debug(format, args);
  }

  boolean isDebugEnabled() {
    return logger.isDebugEnabled();
  }

  void info(String format, Object[] args) {
    logger.info(format, args);
  }

  void warn(String format, Object[] args) {
    logger.warn(format, args);
  }

  void error(String format, Object[] args) {
    logger.error(format, args);
  }
}
