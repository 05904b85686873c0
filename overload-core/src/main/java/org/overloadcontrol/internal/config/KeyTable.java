package org.overloadcontrol.internal.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys of one configuration section ({@code queue.}, {@code bandwidth.}, ... or the core
 * keys, whose prefix is empty), in the order the reference lists them. It is the section's one
 * list of keys: what the section accepts, what it names in the message about an unknown key,
 * and what the reference page and the IDE metadata show.
 *
 * @param prefix the section's prefix without its dot ({@code queue}), or empty for core keys
 * @param title the heading of the section in the reference page
 * @param keys the keys, names relative to the prefix
 */
public record KeyTable(String prefix, String title, List<Key<?>> keys) {

  public KeyTable {
    keys = List.copyOf(keys);
    Set<String> names = new LinkedHashSet<>();
    for (Key<?> k : keys) {
      if (!names.add(k.name())) {
        throw new IllegalArgumentException(prefix + ": key " + k.name() + " listed twice");
      }
    }
  }

  /** A table of the keys under {@code prefix}. */
  public static KeyTable of(String prefix, String title, Key<?>... keys) {
    return new KeyTable(prefix, title, List.of(keys));
  }

  /** Whether {@code relativeKey} is one of this section's keys. */
  public boolean accepts(String relativeKey) {
    return keys.stream().anyMatch(k -> k.matches(relativeKey));
  }

  /** The key names, relative to the prefix, sorted: what a message lists as allowed. */
  public Set<String> names() {
    Set<String> names = new TreeSet<>();
    keys.forEach(k -> names.add(k.name()));
    return names;
  }

  /** A key's name as a user writes it in full, prefix included. */
  public String fullName(Key<?> key) {
    return fullName(key.name());
  }

  /**
   * One of {@code key}'s keys with its value, as a flat configuration writes them: the
   * placeholders of its name filled in order by {@code chosen} ({@code endpoints.<e>.target}
   * with {@code search} is {@code endpoints.search.target}), the value written by the key's
   * codec. What a builder's typed setter puts, so that it writes what the key reads.
   */
  public <T> Map.Entry<String, String> entry(Key<T> key, T value, String... chosen) {
    if (!keys.contains(key)) {
      throw new IllegalArgumentException(prefix + ": not a key of this table: " + key.name());
    }
    return Map.entry(fullName(key.nameFor(chosen)), key.format(value));
  }

  /**
   * The full name of this table's key called {@code name}, its placeholders filled in order by
   * {@code chosen}: where a value kept as written (an annotation's text) is put.
   */
  public String nameOf(String name, String... chosen) {
    return fullName(key(name).nameFor(chosen));
  }

  private String fullName(String relative) {
    return prefix.isEmpty() ? relative : prefix + "." + relative;
  }

  /**
   * The pattern of this table's keys that start with {@code start}, a literal and a placeholder
   * ({@code endpoints.<e>.}): group 1 is the name the user chose, group 2 the rest of the key
   * ({@code permits}, {@code threshold.initial}), so that a section reads the keys of its table
   * without a second list of them. An endpoint's name may hold dots; it is taken as short as
   * the key allows.
   */
  public Pattern keysUnder(String start) {
    Matcher m = Pattern.compile("^([^<]*)(<[a-z]+>)\\.$").matcher(start);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a literal and a placeholder: " + start);
    }
    StringBuilder rest = new StringBuilder();
    for (Key<?> k : keys) {
      if (k.name().startsWith(start)) {
        Key<?> tail = Key.key(k.name().substring(start.length()), "", "", "");
        rest.append(rest.length() == 0 ? "" : "|").append(tail.pattern());
      }
    }
    if (rest.length() == 0) {
      throw new IllegalArgumentException(prefix + ": no key starts with " + start);
    }
    String name = m.group(2).equals("<e>") ? ".+?" : "[^.]+";
    return Pattern.compile(Pattern.quote(m.group(1)) + "(" + name + ")\\.(" + rest + ")");
  }

  /** The key with this exact name, relative to the prefix. */
  public Key<?> key(String name) {
    return keys.stream()
        .filter(k -> k.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(prefix + ": no key " + name));
  }
}
