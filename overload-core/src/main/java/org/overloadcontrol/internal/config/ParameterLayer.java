package org.overloadcontrol.internal.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.admission.ControllerParameters;

/**
 * Controller parameters set at one level of configuration (all endpoints, a class, an endpoint,
 * an endpoint's class), still textual, with the full key each came from. Layers are applied in
 * order of specificity onto the published defaults.
 */
final class ParameterLayer {

  /** The parameter names: the keys of the parameters' table. */
  static final Set<String> NAMES =
      CoreKeyTable.CONTROLLER.keys().stream()
          .map(Key::name)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  static final ParameterLayer EMPTY = new ParameterLayer();

  /** One parameter as the user wrote it: the full key, the value and its layer. */
  record Entry(String key, String value, String origin) {}

  private final Map<String, Entry> entries = new LinkedHashMap<>();

  void put(String name, String key, String value, String origin) {
    entries.put(name, new Entry(key, value, origin));
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The entry that sets parameter {@code name} in this layer, or null. */
  Entry entry(String name) {
    return entries.get(name);
  }

  /** Applies this layer's values to {@code b}; a bad value throws naming its key. */
  void applyTo(ControllerParameters.Builder b) {
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      Entry entry = e.getValue();
      try {
        switch (e.getKey()) {
          case "alpha" -> b.alpha(number(entry));
          case "nreq" -> b.nreq(whole(entry));
          case "timeout" -> b.timeout(duration(entry));
          case "errD" -> b.errD(number(entry));
          case "errI" -> b.errI(number(entry));
          case "cI" -> b.cI(number(entry));
          case "adjI" -> b.adjI(number(entry));
          case "adjD" -> b.adjD(number(entry));
          case "adjLoD" -> b.adjLoD(number(entry));
          case "lcThresh" -> b.lcThresh(whole(entry));
          case "rateMin" -> b.rateMin(number(entry));
          case "rateMax" -> b.rateMax(number(entry));
          case "initialRate" -> b.initialRate(number(entry));
          case "bucketDepth" -> b.bucketDepth(whole(entry));
          case "judgeOnFreshSamples" -> b.judgeOnFreshSamples(Codec.BOOLEAN.parse(entry.value()));
          case "proportionalIncrease" -> b.proportionalIncrease(Codec.BOOLEAN.parse(entry.value()));
          default -> throw new IllegalStateException(e.getKey());
        }
      } catch (OverloadConfigException ex) {
        throw ex;
      } catch (IllegalArgumentException ex) {
        throw OverloadConfigException.of(
            entry.key(), entry.value(), entry.origin(), ex.getMessage());
      }
    }
  }

  private static double number(Entry e) {
    try {
      return Double.parseDouble(e.value());
    } catch (NumberFormatException ex) {
      throw OverloadConfigException.of(e.key(), e.value(), e.origin(), "not a number");
    }
  }

  private static int whole(Entry e) {
    try {
      return Integer.parseInt(e.value());
    } catch (NumberFormatException ex) {
      throw OverloadConfigException.of(e.key(), e.value(), e.origin(), "not a whole number");
    }
  }

  private static Duration duration(Entry e) {
    try {
      return Durations.parse(e.value());
    } catch (IllegalArgumentException ex) {
      throw OverloadConfigException.of(e.key(), e.value(), e.origin(), ex.getMessage());
    }
  }
}
