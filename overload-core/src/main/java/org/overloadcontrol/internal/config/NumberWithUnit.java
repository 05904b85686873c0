package org.overloadcontrol.internal.config;

import java.math.BigDecimal;

/**
 * A quantity as configuration writes it, a decimal number and then its unit ({@code 1.5s},
 * {@code 100KB}): the split that durations and bandwidths share, each reading its own units.
 *
 * @param number the number, exactly as written
 * @param unit what follows the number, trimmed; never empty
 */
public record NumberWithUnit(BigDecimal number, String unit) {

  /**
   * Splits {@code text} where the number ends: at the first character that is not a digit or a
   * point (or, when {@code signed}, a leading minus).
   *
   * @param allowed the allowed form, for the error message
   * @throws IllegalArgumentException ("not " and {@code allowed}) if the number or the unit is
   *     missing or the number is malformed
   */
  public static NumberWithUnit split(String text, boolean signed, String allowed) {
    int unitStart = 0;
    while (unitStart < text.length()
        && (Character.isDigit(text.charAt(unitStart))
            || text.charAt(unitStart) == '.'
            || (signed && unitStart == 0 && text.charAt(0) == '-'))) {
      unitStart++;
    }
    String unit = text.substring(unitStart).trim();
    if (unitStart == 0 || unit.isEmpty()) {
      throw new IllegalArgumentException("not " + allowed);
    }
    try {
      return new NumberWithUnit(new BigDecimal(text.substring(0, unitStart)), unit);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not " + allowed);
    }
  }
}
