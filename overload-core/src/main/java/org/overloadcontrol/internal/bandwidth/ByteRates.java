package org.overloadcontrol.internal.bandwidth;

import java.util.Locale;
import org.overloadcontrol.internal.config.NumberWithUnit;

/**
 * Parses bandwidths as configuration writes them: a number, a unit of bytes or bits, and
 * {@code /s}. Decimal units are powers of 1000 ({@code KB/s} = 1000 bytes per second, as
 * network links are sold), binary units powers of 1024 ({@code KiB/s}); bits are for people who
 * copy a link's rating ({@code 100Mbit/s} = 12.5 MB/s). A bare number is refused: "100" could be
 * bytes, kilobytes or bits.
 */
final class ByteRates {

  /** What the error messages offer as the allowed form. */
  public static final String ALLOWED =
      "a rate such as 100KB/s, 1.5MB/s, 512KiB/s or 100Mbit/s"
          + " (units B, KB, MB, GB = 1000^n bytes; KiB, MiB, GiB = 1024^n bytes;"
          + " kbit, Mbit, Gbit = 1000^n bits; each followed by /s)";

  private ByteRates() {}

  /**
   * Parses {@code text} into bytes per second.
   *
   * @throws IllegalArgumentException if it is not a positive rate
   */
  public static double parseBytesPerSecond(String text) {
    String s = text.trim();
    if (!s.toLowerCase(Locale.ROOT).endsWith("/s")) {
      throw new IllegalArgumentException("not " + ALLOWED);
    }
    s = s.substring(0, s.length() - 2).trim();
    NumberWithUnit quantity = NumberWithUnit.split(s, false, ALLOWED);
    double bytesPerUnit =
        switch (quantity.unit()) {
          case "B" -> 1;
          case "KB", "kB" -> 1e3;
          case "MB" -> 1e6;
          case "GB" -> 1e9;
          case "KiB" -> 1024;
          case "MiB" -> 1024 * 1024;
          case "GiB" -> 1024.0 * 1024 * 1024;
          case "kbit", "Kbit" -> 1e3 / 8;
          case "Mbit" -> 1e6 / 8;
          case "Gbit" -> 1e9 / 8;
          default -> throw new IllegalArgumentException("not " + ALLOWED);
        };
    double rate = quantity.number().doubleValue() * bytesPerUnit;
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("must be a positive rate; " + ALLOWED);
    }
    return rate;
  }
}
