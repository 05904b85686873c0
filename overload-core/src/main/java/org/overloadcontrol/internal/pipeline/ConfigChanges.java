package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeSet;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * The keys whose effective value differs between the running configuration and a new one, as
 * the reload's log line and result say them: {@code key: old → new}, a key that was not set
 * shown as {@code (unset)}, and the value of a key that may hold a secret masked.
 */
final class ConfigChanges {

  /** How an unset key is shown. */
  static final String UNSET = "(unset)";

  /** How a secret value is shown: the line must not leak it into a log. */
  static final String MASKED = "****";

  private final SortedMap<String, String> before;
  private final SortedMap<String, String> after;
  private final List<String> keys;

  private ConfigChanges(SortedMap<String, String> before, SortedMap<String, String> after) {
    this.before = before;
    this.after = after;
    TreeSet<String> all = new TreeSet<>(before.keySet());
    all.addAll(after.keySet());
    List<String> changed = new ArrayList<>();
    for (String key : all) {
      if (!Objects.equals(before.get(key), after.get(key))) {
        changed.add(key);
      }
    }
    this.keys = List.copyOf(changed);
  }

  static ConfigChanges between(OverloadConfig running, OverloadConfig next) {
    return new ConfigChanges(running.values(), next.values());
  }

  /** The changed keys, sorted. */
  List<String> keys() {
    return keys;
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }

  /** Whether any changed key is {@code prefix} itself or lies under {@code prefix.}. */
  String firstUnder(String prefix) {
    for (String key : keys) {
      if (key.equals(prefix) || key.startsWith(prefix + ".")) {
        return key;
      }
    }
    return null;
  }

  /** The value of {@code key} in the new configuration, masked when it may be a secret. */
  String newValue(String key) {
    return shown(key, after);
  }

  /** Each change as {@code key: old → new}. */
  List<String> lines() {
    List<String> lines = new ArrayList<>(keys.size());
    for (String key : keys) {
      lines.add(key + ": " + shown(key, before) + " → " + shown(key, after));
    }
    return lines;
  }

  private static String shown(String key, Map<String, String> values) {
    String value = values.get(key);
    if (value == null) {
      return UNSET;
    }
    return secret(key) ? MASKED : value;
  }

  /**
   * Whether a key's value may be a secret: a key, token, password or secret by its name. Key
   * file paths and environment variable names are not secrets, but are masked alike rather than
   * guessed at.
   */
  static boolean secret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("key")
        || k.contains("token")
        || k.contains("secret")
        || k.contains("password");
  }
}
