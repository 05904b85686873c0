package org.overloadcontrol.internal.pipeline;

import java.util.Objects;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * One configuration key as a reference shows it to a user (the configuration reference, an
 * IDE's completion): read from the key tables the parser accepts keys by ({@link
 * KeyReference#keys}), so that what a reference lists is what the parser accepts.
 *
 * @param name the key in full, with a placeholder where the user chooses a name ({@code
 *     endpoints.<e>.target}, {@code classes.<c>.rank})
 * @param type the kind of value, in words ({@code duration}, {@code boolean}, ...)
 * @param defaultValue the default as the documentation writes it: a value in backquotes or bare,
 *     words ("none: no queueing"), or empty when there is none
 * @param literalDefault the default as one value ({@code 10s}, {@code 0.9}, {@code true}), or
 *     null when it is given in words, refers to another key, or there is none
 * @param meaning what the key does, in a sentence
 */
public record KeyDescription(
    String name, String type, String defaultValue, String literalDefault, String meaning) {

  public KeyDescription {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(meaning, "meaning");
  }

  /**
   * A key an adapter reads itself, outside the library's sections (the Spring starter's own
   * properties), described as the library's keys are: its literal default read from {@code
   * defaultValue} by the same rule.
   */
  public static KeyDescription of(String name, String type, String defaultValue, String meaning) {
    Key<String> key = Key.key(name, type, defaultValue, meaning);
    return new KeyDescription(name, type, defaultValue, key.literalDefault(), meaning);
  }

  /** {@code key} of {@code table}, named in full. */
  static KeyDescription of(KeyTable table, Key<?> key) {
    return new KeyDescription(
        table.fullName(key), key.type(), key.defaultValue(), key.literalDefault(), key.meaning());
  }
}
