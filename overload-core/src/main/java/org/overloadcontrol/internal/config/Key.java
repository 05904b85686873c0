package org.overloadcontrol.internal.config;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configuration key as a user meets it: its name as written in a configuration (with a
 * placeholder where the user chooses a name), the kind of value it takes, its default as a user
 * would write it and what it means in a sentence (whether a reload may change it is the reload's
 * own rule, which the reference page reads). Each section's {@link KeyTable} lists its keys; the section's whitelist,
 * the generated reference page and the Spring Boot metadata are all read from those tables, so
 * they cannot disagree.
 *
 * <p>Placeholders in a name: {@code <e>} an endpoint (any text, dots included), {@code <c>} a
 * request class, {@code <g>} a group, {@code <parameter>} a controller parameter (one segment
 * each), {@code NAME} a request type of the virtual queue (letters, digits, {@code _}, {@code -}).
 *
 * @param name the key, relative to its table's prefix, e.g. {@code endpoints.<e>.permits}
 * @param type the kind of value, in words ({@code duration}, {@code boolean}, ...)
 * @param defaultValue the default as the documentation writes it: a value in backquotes or bare
 *     ({@code `10s`}, {@code 0.9}), words ("none: no queueing"), or empty when there is none
 * @param meaning what the key does, for the reference page and the IDE
 * @param codec how the key's values are read and written; a key made with {@link #key} keeps
 *     its text as written
 * @param absent the value when the key is absent, where the default is given in words ("none:
 *     no queueing" is 0 permits); null where the default is {@link #literalDefault} read by the
 *     codec
 * @param <T> the type of the key's values
 */
public record Key<T>(
    String name, String type, String defaultValue, String meaning, Codec<T> codec, T absent) {

  private static final Pattern PLACEHOLDER = Pattern.compile("<e>|<c>|<g>|<parameter>|NAME");
  private static final Pattern CODE = Pattern.compile("^`([^`]*)`$");

  public Key {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(meaning, "meaning");
    Objects.requireNonNull(codec, "codec");
    String literal = literalDefault(defaultValue);
    if (absent != null && literal != null) {
      throw new IllegalArgumentException(name + ": the default is written twice");
    }
    if (literal != null) {
      try {
        codec.parse(literal);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            name + ": the default " + literal + " is not of the key's type: " + e.getMessage(), e);
      }
    }
  }

  /** A key whose value a section reads itself, from its text. */
  public static Key<String> key(String name, String type, String defaultValue, String meaning) {
    return new Key<>(name, type, defaultValue, meaning, Codecs.TEXT, null);
  }

  /**
   * A key of a type: a section reads its value and its default through {@code codec}, so the
   * default documented here is the one the code uses.
   *
   * @param defaultValue the default as {@link #key} takes it: one value that {@code codec}
   *     reads, or words, or empty where the key has none
   */
  public static <T> Key<T> typed(
      String name, String type, String defaultValue, String meaning, Codec<T> codec) {
    return new Key<>(name, type, defaultValue, meaning, codec, null);
  }

  /**
   * A key of a type whose default is given in words ("none: no queueing", "unlimited"):
   * {@code absent} is what those words mean to the code.
   */
  public static <T> Key<T> typed(
      String name, String type, String defaultInWords, String meaning, Codec<T> codec, T absent) {
    return new Key<>(name, type, defaultInWords, meaning, codec, Objects.requireNonNull(absent));
  }

  /**
   * The value when the key is absent: the {@link #literalDefault} read by the codec, or the
   * value the default in words stands for, or null where the key has no default.
   */
  public T fallback() {
    if (absent != null) {
      return absent;
    }
    String literal = literalDefault();
    return literal == null ? null : codec.parse(literal);
  }

  /**
   * The name with its placeholders filled in order by {@code chosen}: {@code endpoints.<e>.target}
   * with {@code search} is {@code endpoints.search.target}.
   */
  public String nameFor(String... chosen) {
    Matcher m = PLACEHOLDER.matcher(name);
    StringBuilder filled = new StringBuilder();
    int i = 0;
    while (m.find()) {
      if (i == chosen.length) {
        throw new IllegalArgumentException(name + ": a name for each placeholder, please");
      }
      m.appendReplacement(filled, Matcher.quoteReplacement(chosen[i++]));
    }
    if (i != chosen.length) {
      throw new IllegalArgumentException(name + ": " + chosen.length + " names for " + i);
    }
    return m.appendTail(filled).toString();
  }

  /** {@code value} as this key's text, e.g. for a builder's typed setter. */
  public String format(T value) {
    return codec.format(value);
  }

  /** The regular expression of the keys this name stands for, placeholders filled in. */
  public String pattern() {
    StringBuilder regex = new StringBuilder();
    Matcher m = PLACEHOLDER.matcher(name);
    int at = 0;
    while (m.find()) {
      regex.append(quoted(name.substring(at, m.start())));
      regex.append(
          switch (m.group()) {
            case "<e>" -> ".+";
            case "NAME" -> "[A-Za-z0-9_-]+";
            default -> "[^.]+";
          });
      at = m.end();
    }
    return regex.append(quoted(name.substring(at))).toString();
  }

  /** Dots escaped, the rest of a name is letters. */
  private static String quoted(String literal) {
    return literal.replace(".", "\\.");
  }

  /** Whether {@code key}, relative to the table's prefix, is one this name stands for. */
  public boolean matches(String key) {
    return key.matches(pattern());
  }

  /**
   * The default as one value ({@code 10s}, {@code 0.9}, {@code true}), or null when the default
   * is given in words ("none: no queueing", "the container's request threads"), refers to
   * another key ({@code `maxLimit`}, {@code `endpoints.<e>.target`}), or is "none" or
   * "required".
   */
  public String literalDefault() {
    return literalDefault(defaultValue);
  }

  private static String literalDefault(String defaultValue) {
    Matcher code = CODE.matcher(defaultValue);
    String value;
    if (code.matches()) {
      value = code.group(1);
    } else if (defaultValue.matches("[-−A-Za-z0-9.,%_]+")) {
      value = defaultValue.replace("−", "-");
      if (value.matches("-?[0-9][0-9,]*(\\.[0-9]+)?")) {
        value = value.replace(",", "");
      }
    } else {
      return null;
    }
    if (value.contains("<")
        || value.matches("[a-z]+[A-Z][A-Za-z]*")
        || value.equals("none")
        || value.equals("required")
        || value.equals("unlimited")) {
      return null;
    }
    return value;
  }
}
