package org.overloadcontrol.base;

import java.util.Arrays;

/**
 * A log call in SLF4J's shape ({@code {}} placeholders filled in order, a trailing {@link
 * Throwable} that no placeholder takes is the line's cause) made into text, for {@link
 * OverloadLog}'s fallback, which must work without {@code slf4j-api} on the class path. SLF4J's
 * escapes ({@code \{}}) are not supported: the library's own lines do not use them.
 */
record LogLine(String message, Throwable thrown) {

  static LogLine of(String format, Object[] args) {
    Object[] given = args == null ? new Object[0] : args;
    StringBuilder text = new StringBuilder(format.length() + 16 * given.length);
    int used = 0;
    int from = 0;
    for (int at = format.indexOf("{}"); at >= 0 && used < given.length; ) {
      text.append(format, from, at).append(display(given[used++]));
      from = at + 2;
      at = format.indexOf("{}", from);
    }
    text.append(format, from, format.length());
    Throwable thrown =
        used < given.length && given[given.length - 1] instanceof Throwable t ? t : null;
    return new LogLine(text.toString(), thrown);
  }

  /** The message, and its cause after a colon as SLF4J's simple providers print its first line. */
  String text() {
    return thrown == null ? message : message + ": " + thrown;
  }

  private static String display(Object arg) {
    return arg instanceof Object[] array ? Arrays.deepToString(array) : String.valueOf(arg);
  }
}
