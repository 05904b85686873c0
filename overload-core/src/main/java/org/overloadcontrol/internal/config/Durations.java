package org.overloadcontrol.internal.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Parses durations as people write them in configuration: a number and a unit ({@code 500ms},
 * {@code 1.5s}, {@code 2m}, {@code 250us}, {@code 1h}, {@code 10ns}) or ISO-8601
 * ({@code PT0.5S}). A bare number is refused: "500" could mean seconds or milliseconds.
 */
public final class Durations {

  /** What the error messages offer as the allowed form. */
  public static final String ALLOWED = "a duration such as 500ms, 1.5s, 2m, 250us or PT0.5S";

  private static final String TOO_LONG = "too long: at most 292 years (PT2562047H)";

  private Durations() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException if it is not a duration
   */
  public static Duration parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("pt") || s.startsWith("-pt")) {
      Duration d;
      try {
        d = Duration.parse(text.trim());
      } catch (DateTimeParseException | ArithmeticException e) {
        throw new IllegalArgumentException("not " + ALLOWED);
      }
      return representable(d);
    }
    NumberWithUnit quantity = NumberWithUnit.split(s, true, ALLOWED);
    long nanosPerUnit =
        switch (quantity.unit()) {
          case "ns" -> 1L;
          case "us", "µs" -> 1_000L;
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m", "min" -> 60_000_000_000L;
          case "h" -> 3_600_000_000_000L;
          default ->
              throw new IllegalArgumentException(
                  "not " + ALLOWED + " (units: ns, us, ms, s, m, h)");
        };
    BigDecimal nanos = quantity.number().multiply(BigDecimal.valueOf(nanosPerUnit));
    if (nanos.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(TOO_LONG);
    }
    return Duration.ofNanos(nanos.longValue());
  }

  /**
   * Writes {@code d} in the largest unit that holds it exactly ({@code 10s}, {@code 250ms},
   * {@code 1500ms}), the form this class reads and the reference shows.
   */
  public static String format(Duration d) {
    long nanos = d.toNanos();
    String[] units = {"h", "m", "s", "ms", "us"};
    long[] sizes = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
    for (int i = 0; i < units.length; i++) {
      if (nanos != 0 && nanos % sizes[i] == 0) {
        return nanos / sizes[i] + units[i];
      }
    }
    return nanos + "ns";
  }

  /**
   * Every setting is kept in nanoseconds on the {@code Ticker}'s scale, so a duration whose
   * nanoseconds do not fit a long would overflow later, far from the key that caused it.
   */
  private static Duration representable(Duration d) {
    try {
      d.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(TOO_LONG);
    }
    return d;
  }
}
