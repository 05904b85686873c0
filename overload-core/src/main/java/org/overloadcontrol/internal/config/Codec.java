package org.overloadcontrol.internal.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the values of one kind of key are read from text and written back: the type of a {@link
 * Key}. A section reads a key's value and its default through the key's codec, and a builder's
 * typed setter writes its value through the same codec, so the text a user writes, the default
 * the table documents and the value the code uses are one reading of one rule.
 *
 * <p>{@link #parse} throws an {@link IllegalArgumentException} whose message says what is
 * wrong with the value ("allowed: true, false"); {@link ConfigSection} adds the key, the value
 * and where it came from.
 *
 * @param <T> the type of the values
 */
public interface Codec<T> {

  /** Reads a value; the text comes trimmed. */
  T parse(String text);

  /** Writes a value so that {@link #parse} reads it back. */
  String format(T value);

  /** A codec of the two functions. */
  static <T> Codec<T> of(Function<String, T> parse, Function<T, String> format) {
    Objects.requireNonNull(parse, "parse");
    Objects.requireNonNull(format, "format");
    return new Codec<>() {
      @Override
      public T parse(String text) {
        return parse.apply(text);
      }

      @Override
      public String format(T value) {
        return format.apply(value);
      }
    };
  }

  /**
   * The one switch of every key: {@code true}, {@code yes} or {@code on}, {@code false}, {@code
   * no} or {@code off}, in any case. Anything else is refused, so a typo never switches an
   * option off silently.
   */
  Codec<Boolean> BOOLEAN =
      of(
          v ->
              switch (v.trim().toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on" -> true;
                case "false", "no", "off" -> false;
                default -> throw new IllegalArgumentException("allowed: true, false");
              },
          String::valueOf);

  /** A count (capacities, limits, samples): a whole number of at least 1. */
  Codec<Integer> POSITIVE_INT =
      of(
          v -> {
            int n;
            try {
              n = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("not a whole number");
            }
            if (n < 1) {
              throw new IllegalArgumentException("must be >= 1");
            }
            return n;
          },
          String::valueOf);

  /**
   * A positive duration ({@link Durations}) in nanoseconds, on the {@code Ticker}'s scale. A
   * duration too long to count in nanoseconds is refused, never wrapped.
   */
  Codec<Long> POSITIVE_NANOS =
      of(
          v -> {
            Duration d = Durations.parse(v);
            if (d.isNegative() || d.isZero()) {
              throw new IllegalArgumentException("must be a positive duration such as 500ms");
            }
            return d.toNanos();
          },
          nanos -> Durations.format(Duration.ofNanos(nanos)));

  /** A share: a number in [0, 1]. */
  Codec<Double> FRACTION =
      of(
          v -> {
            double d;
            try {
              d = Double.parseDouble(v.trim());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("not a number");
            }
            if (!(d >= 0 && d <= 1)) {
              throw new IllegalArgumentException("must lie in [0, 1]");
            }
            return d;
          },
          String::valueOf);

  /**
   * One of a few words, in any case, each standing for a value: {@code ("per-class",
   * PER_CLASS), ("single", SINGLE)}; anything else is refused naming the words allowed.
   *
   * @param wordsAndValues a word, its value, the next word, its value, ...
   */
  static <T> Codec<T> oneOf(Class<T> type, Object... wordsAndValues) {
    Map<String, T> values = new LinkedHashMap<>();
    for (int i = 0; i < wordsAndValues.length; i += 2) {
      values.put((String) wordsAndValues[i], type.cast(wordsAndValues[i + 1]));
    }
    String allowed = "allowed: " + String.join(", ", values.keySet());
    return of(
        v -> {
          T value = values.get(v.trim().toLowerCase(Locale.ROOT));
          if (value == null) {
            throw new IllegalArgumentException(allowed);
          }
          return value;
        },
        value ->
            values.entrySet().stream()
                .filter(e -> e.getValue().equals(value))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(value + ": " + allowed)));
  }
}
