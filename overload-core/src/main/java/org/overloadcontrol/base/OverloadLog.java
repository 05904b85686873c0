package org.overloadcontrol.base;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;

/**
 * The library's own log lines, that cannot vanish: through SLF4J when a provider is bound, and
 * otherwise through the container's log of the web application (a sink the servlet filter
 * installs, {@code ServletContext.log}) or, without one, through {@code java.util.logging}.
 *
 * <p>Why: SLF4J 2 without a provider prints "No SLF4J providers were found" once on standard
 * error and drops every line after it, among them the one that says an endpoint entered
 * overload (issue 21). A WAR that carries {@code slf4j-api} but no provider is the common case.
 * On fallback the library says once, through the same log, what happened and what a WAR needs.
 *
 * <p>SLF4J is optional: a web application without {@code slf4j-api} gets the same fallback, and
 * no SLF4J class is loaded ({@link Slf4jLog} holds every reference to one), so a WAR need carry
 * neither the API nor a provider.
 *
 * <p>The call shapes are SLF4J's ({@code {}} placeholders, a trailing {@link Throwable}), so a
 * class switches by its logger's declaration alone. DEBUG lines are not carried over: they are
 * for someone who has configured logging.
 */
public final class OverloadLog {

  /** The line that says, once, where the library's lines went instead. */
  static final String NO_PROVIDER_NOTICE =
      "overload-control: no SLF4J provider is bound, so"
          + " SLF4J drops log lines; overload-control writes its warnings and its"
          + " 'endpoint ... is now shedding' lines here instead. To have them in the application's log,"
          + " add an SLF4J 2 provider (e.g. slf4j-jdk14, logback-classic) to the web application";

  private static final AtomicReference<Consumer<String>> CONTAINER = new AtomicReference<>();
  private static final AtomicBoolean NOTICE_SAID = new AtomicBoolean();

  /** Whether {@code slf4j-api} is on this class loader's path: decided once, as SLF4J binds once. */
  private static final boolean SLF4J_PRESENT = slf4jPresent();

  /** Null without {@code slf4j-api}. */
  private final Slf4jLog slf4j;

  private final String name;

  private OverloadLog(String name) {
    this.name = name;
    this.slf4j = SLF4J_PRESENT ? new Slf4jLog(name) : null;
  }

  private static boolean slf4jPresent() {
    try {
      Class.forName("org.slf4j.LoggerFactory", false, OverloadLog.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The log named after {@code type}, as SLF4J's {@code LoggerFactory.getLogger(Class)}. */
  public static OverloadLog get(Class<?> type) {
    return new OverloadLog(type.getName());
  }

  /** The log of that name. */
  public static OverloadLog get(String name) {
    return new OverloadLog(name);
  }

  /**
   * Sends the fallback lines of this class loader's copy of the library to {@code sink} (the
   * servlet filter's {@code ServletContext.log}) until the returned handle is closed, and says
   * there at once when SLF4J has no provider. One sink at a time: in a WAR the library's
   * classes are the web application's own, so the sink is its container log.
   */
  public static AutoCloseable containerSink(Consumer<String> sink) {
    Objects.requireNonNull(sink, "sink");
    CONTAINER.set(sink);
    if (!slf4jBound() && NOTICE_SAID.compareAndSet(false, true)) {
      write(sink, null, Level.INFO, NO_PROVIDER_NOTICE);
    }
    return () -> CONTAINER.compareAndSet(sink, null);
  }

  /**
   * Whether SLF4J is on the class path and has a provider; without one it hands out its
   * no-operation loggers.
   */
  public static boolean slf4jBound() {
    return SLF4J_PRESENT && Slf4jLog.bound();
  }

  /** Detail for someone who has configured logging: SLF4J only. */
  public void debug(String format, Object... args) {
    if (slf4j != null) {
      slf4j.debug(format, args);
    }
  }

  /** Whether DEBUG lines are written, to skip building their arguments. */
  public boolean isDebugEnabled() {
    return slf4j != null && slf4j.isDebugEnabled();
  }

  /** A line about the library's state an operator wants in the log (overload entered/left). */
  public void info(String format, Object... args) {
    if (slf4jBound()) {
      slf4j.info(format, args);
    } else {
      fallback(Level.INFO, format, args);
    }
  }

  /** Something works, but not as configured or expected. */
  public void warn(String format, Object... args) {
    if (slf4jBound()) {
      slf4j.warn(format, args);
    } else {
      fallback(Level.WARNING, format, args);
    }
  }

  /** Something failed. */
  public void error(String format, Object... args) {
    if (slf4jBound()) {
      slf4j.error(format, args);
    } else {
      fallback(Level.SEVERE, format, args);
    }
  }

  private void fallback(Level level, String format, Object[] args) {
    Consumer<String> sink = CONTAINER.get();
    if (NOTICE_SAID.compareAndSet(false, true)) {
      write(sink, name, Level.INFO, NO_PROVIDER_NOTICE);
    }
    write(sink, name, level, LogLine.of(format, args).text());
  }

  private static void write(Consumer<String> sink, String name, Level level, String message) {
    if (sink != null) {
      try {
        // The container's log has no levels of its own (ServletContext.log): say it in words.
        sink.accept(level == Level.INFO ? message : level.getName() + " " + message);
        return;
      } catch (RuntimeException e) {
        // A stopping context may refuse to log; the JUL line below still says it.
      }
    }
    java.util.logging.Logger.getLogger(name == null ? OverloadLog.class.getName() : name)
        .log(level, message);
  }
}
