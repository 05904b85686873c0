package org.overloadcontrol.internal.config;

import java.time.Duration;
import java.util.Locale;
import org.overloadcontrol.base.RequestKind;

/** The codecs of the core keys that no other key shares. */
final class Codecs {

  /** The text as written. */
  static final Codec<String> TEXT = Codec.of(v -> v, v -> v);

  /** Any whole number. */
  static final Codec<Integer> WHOLE =
      Codec.of(
          v -> {
            try {
              return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("not a whole number");
            }
          },
          String::valueOf);

  static final Codec<RequestKind> KIND =
      Codec.oneOf(
          RequestKind.class,
          "browsing",
          RequestKind.BROWSING,
          "transaction",
          RequestKind.TRANSACTION);

  /** A class's utility: a finite number of at least 0. */
  static final Codec<Double> UTILITY =
      Codec.of(
          v -> {
            double d;
            try {
              d = Double.parseDouble(v.trim());
            } catch (NumberFormatException e) {
              d = -1;
            }
            if (!(d >= 0) || Double.isInfinite(d)) {
              throw new IllegalArgumentException("must be a number >= 0");
            }
            return d;
          },
          String::valueOf);

  /**
   * A target: a positive duration, or null for {@code none} / {@code off}, measured but not
   * controlled. A zero or negative duration is written as one, so that it is refused as one.
   */
  static final Codec<Duration> TARGET =
      Codec.of(
          v -> {
            String s = v.trim().toLowerCase(Locale.ROOT);
            if (s.equals("none") || s.equals("off")) {
              return null;
            }
            Duration d;
            try {
              d = Durations.parse(v);
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException(e.getMessage() + ", or none", e);
            }
            if (d.isNegative() || d.isZero()) {
              throw new IllegalArgumentException(
                  "a target must be a positive duration such as 500ms, or none");
            }
            return d;
          },
          d -> d == null ? "none" : Durations.format(d));

  private Codecs() {}
}
