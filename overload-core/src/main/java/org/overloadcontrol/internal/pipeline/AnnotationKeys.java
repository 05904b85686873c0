package org.overloadcontrol.internal.pipeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * The keys that an endpoint's {@link ResponseTimeTarget}, {@link Degradable} and {@link
 * RequestClass} stand for, put into the lowest configuration layer the same way by every
 * adapter. Two annotated handlers that share an endpoint or a class and disagree on a key
 * conflict, as which one should win would be a guess; what a conflict does is the adapter's
 * policy: {@link #throwing} refuses at once, {@link #collecting} keeps the first value and
 * records the conflict, an error unless a higher layer sets the key.
 */
public final class AnnotationKeys {

  private final KeyLayer.Builder layer;
  private final String mustAgree;
  private final Map<String, OverloadConfigException> conflicts;

  private AnnotationKeys(
      String layerName, String mustAgree, Map<String, OverloadConfigException> conflicts) {
    this.layer = KeyLayer.builder(layerName);
    this.mustAgree = mustAgree;
    this.conflicts = conflicts;
  }

  /**
   * Keys whose first conflict throws.
   *
   * @param layerName the layer's name, for the messages
   * @param mustAgree the end of a conflict's message: who must agree
   */
  public static AnnotationKeys throwing(String layerName, String mustAgree) {
    return new AnnotationKeys(layerName, mustAgree, null);
  }

  /** Keys whose conflicts are recorded ({@link #conflicts}), each key keeping its first value. */
  public static AnnotationKeys collecting(String layerName, String mustAgree) {
    return new AnnotationKeys(layerName, mustAgree, new LinkedHashMap<>());
  }

  /**
   * Puts the keys of the annotations of one handler of {@code endpoint}, in this order: target,
   * degradation, class.
   *
   * @param target its target, or null
   * @param degradable its degradation, or null
   * @param requestClass its class, or null
   * @param where the annotated handler ({@code com.example.Search}, {@code
   *     com.example.Search#find}), for the origins
   * @throws OverloadConfigException when {@link #throwing} and a key disagrees with one put
   *     before
   */
  public void put(
      String endpoint,
      ResponseTimeTarget target,
      Degradable degradable,
      RequestClass requestClass,
      String where) {
    if (target != null) {
      putAll(BuilderKeys.targetText(endpoint, target.value()), "@ResponseTimeTarget on " + where);
    }
    if (degradable != null) {
      putAll(
          BuilderKeys.degradable(
              endpoint, degradable.minQuality(), degradable.withAdmissionControl()),
          "@Degradable on " + where);
    }
    if (requestClass != null) {
      String origin = "@RequestClass on " + where;
      String name = requestClass.value().trim();
      putAll(BuilderKeys.endpointClass(endpoint, name), origin);
      putAll(
          BuilderKeys.requestClass(
              name, requestClass.rank(), requestClass.kind(), requestClass.utility()),
          origin);
    }
  }

  /** The layer of the keys put. */
  public KeyLayer layer() {
    return layer.build();
  }

  /** The layer of the keys put, as the settings read it. */
  ConfigSource source() {
    return layer().source();
  }

  /** The keys on which handlers disagree, each with its error; empty when {@link #throwing}. */
  public Map<String, OverloadConfigException> conflicts() {
    return conflicts == null ? Map.of() : Collections.unmodifiableMap(conflicts);
  }

  private void putAll(Map<String, String> keys, String origin) {
    keys.forEach((key, value) -> put(key, value, origin));
  }

  private void put(String key, String value, String origin) {
    String existing = layer.get(key);
    if (existing != null && !existing.equals(value)) {
      OverloadConfigException conflict =
          OverloadConfigException.of(
              key,
              value,
              origin,
              "conflicts with '" + existing + "' from " + layer.originOf(key) + "; " + mustAgree);
      if (conflicts == null) {
        throw conflict;
      }
      conflicts.putIfAbsent(key, conflict);
      return;
    }
    layer.put(key, value, origin);
  }
}
