package org.overloadcontrol.config;

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

  private Durations() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException if it is not a duration
   */
  public static Duration parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("pt") || s.startsWith("-pt")) {
      try {
        return Duration.parse(text.trim());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not " + ALLOWED);
      }
    }
    int unitStart = 0;
    while (unitStart < s.length()
        && (Character.isDigit(s.charAt(unitStart)) || s.charAt(unitStart) == '.'
            || (unitStart == 0 && s.charAt(0) == '-'))) {
      unitStart++;
    }
    if (unitStart == 0 || unitStart == s.length()) {
      throw new IllegalArgumentException("not " + ALLOWED);
    }
    BigDecimal number;
    try {
      number = new BigDecimal(s.substring(0, unitStart));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not " + ALLOWED);
    }
    long nanosPerUnit = switch (s.substring(unitStart).trim()) {
      case "ns" -> 1L;
      case "us", "µs" -> 1_000L;
      case "ms" -> 1_000_000L;
      case "s" -> 1_000_000_000L;
      case "m", "min" -> 60_000_000_000L;
      case "h" -> 3_600_000_000_000L;
      default -> throw new IllegalArgumentException("not " + ALLOWED
          + " (units: ns, us, ms, s, m, h)");
    };
    return Duration.ofNanos(number.multiply(BigDecimal.valueOf(nanosPerUnit)).longValue());
  }
}
