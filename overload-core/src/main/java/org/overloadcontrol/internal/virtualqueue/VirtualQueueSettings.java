package org.overloadcontrol.internal.virtualqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.internal.classify.PathPattern;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Durations;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The {@code virtualQueue.} configuration, parsed and validated once. See
 * {@code docs/virtual-queue.md} for every key; in short:
 *
 * <pre>
 * virtualQueue.enabled          false       switch
 * virtualQueue.paths            (required)  path patterns the queue protects, comma-separated
 * virtualQueue.capacity         auto        subunits per second, or auto (estimated, §IV)
 * virtualQueue.maxWait          5m          longest wait handed out; beyond it 503   (1s..1h)
 * virtualQueue.grace            10s         how long after its slot a token still admits
 * virtualQueue.keyFile          -           file with id:base64-key entries, current first
 * virtualQueue.keyEnv           -           environment variable with the same entries
 * virtualQueue.types.NAME       -           path patterns of request type NAME
 * virtualQueue.hardness.NAME    1           subunits per request of NAME (with a fixed capacity)
 * virtualQueue.epoch            10s         power-ratio sampling epoch (capacity auto)
 * virtualQueue.trainingEpochs   84          epochs collected before estimating (capacity auto)
 * virtualQueue.replayCacheSize  100000      tokens remembered to refuse a second use
 * virtualQueue.repostMaxBytes   65536       largest form body the waiting page re-posts
 * </pre>
 */
public record VirtualQueueSettings(
    boolean enabled,
    List<PathPattern> paths,
    double capacity,
    int maxWaitSeconds,
    int graceSeconds,
    String keyFile,
    String keyEnv,
    Map<String, List<PathPattern>> types,
    Map<String, Double> hardness,
    Duration epoch,
    int trainingEpochs,
    long replayCacheSize,
    int repostMaxBytes) {

  /** {@link #capacity} when it is estimated. */
  public static final double AUTO = Double.NaN;

  /** The type of a request that matches no {@code types.*} pattern. */
  public static final String DEFAULT_TYPE = "default";

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = VirtualQueueKeyTable.TABLE;

  public VirtualQueueSettings {
    paths = List.copyOf(paths);
    types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
    hardness = Map.copyOf(hardness);
  }

  /** Whether the capacity is estimated rather than configured. */
  public boolean capacityAuto() {
    return Double.isNaN(capacity);
  }

  /** Whether the queue protects {@code path} (within the application). */
  public boolean protects(String path) {
    if (!enabled) {
      return false;
    }
    for (PathPattern p : paths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }

  /** The request type of {@code path}: the first {@code types.*} that matches, else default. */
  public String typeOf(String path) {
    for (Map.Entry<String, List<PathPattern>> e : types.entrySet()) {
      for (PathPattern p : e.getValue()) {
        if (p.matches(path)) {
          return e.getKey();
        }
      }
    }
    return DEFAULT_TYPE;
  }

  /**
   * Parses and validates the section.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key and value
   */
  public static VirtualQueueSettings from(ConfigSection s) {
    s.requireOnly(KEYS);
    boolean enabled = s.parse("enabled", ConfigSection::bool, false);
    List<PathPattern> paths = s.parse("paths", VirtualQueueSettings::patterns, List.of());
    if (enabled && paths.isEmpty()) {
      throw s.conflict(
          "virtualQueue.paths is required when virtualQueue.enabled is true: list the path"
              + " patterns to protect, e.g. /checkout,/api/book/*",
          "paths",
          "enabled");
    }
    double capacity = s.parse("capacity", VirtualQueueSettings::capacity, AUTO);
    int maxWait = s.parse("maxWait", v -> seconds(v, 1, 3600), 300);
    int grace = s.parse("grace", v -> seconds(v, 1, 600), 10);
    String keyFile = s.parse("keyFile", VirtualQueueSettings::nonBlank, null);
    String keyEnv = s.parse("keyEnv", VirtualQueueSettings::nonBlank, null);
    if (keyFile != null && keyEnv != null) {
      throw s.error(
          "keyEnv",
          "give either virtualQueue.keyFile or virtualQueue.keyEnv, not"
              + " both (put all keys, current first, in one of them)");
    }
    Map<String, List<PathPattern>> types = new LinkedHashMap<>();
    Map<String, Double> hardness = new LinkedHashMap<>();
    for (String key : s.keys()) {
      if (key.startsWith("types.")) {
        types.put(key.substring(6), s.parse(key, VirtualQueueSettings::patterns, List.of()));
      } else if (key.startsWith("hardness.")) {
        hardness.put(key.substring(9), s.parse(key, VirtualQueueSettings::hardness, 1.0));
      }
    }
    if (Double.isNaN(capacity) && !hardness.isEmpty()) {
      throw s.error(
          "hardness." + hardness.keySet().iterator().next(),
          "with virtualQueue"
              + ".capacity = auto the hardness is estimated; give hardness only with a numeric"
              + " capacity");
    }
    Duration epoch =
        s.parse(
            "epoch",
            v -> {
              Duration d = Durations.parse(v);
              if (d.compareTo(Duration.ofSeconds(1)) < 0
                  || d.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("must be between 1s and 10m");
              }
              return d;
            },
            Duration.ofSeconds(10));
    int trainingEpochs = s.parse("trainingEpochs", v -> (int) integer(v, 5, 100_000), 84);
    long replay = s.parse("replayCacheSize", v -> integer(v, 100, 100_000_000), 100_000L);
    int repost = s.parse("repostMaxBytes", v -> (int) integer(v, 0, 10_000_000), 65_536);
    return new VirtualQueueSettings(
        enabled,
        paths,
        capacity,
        maxWait,
        grace,
        keyFile,
        keyEnv,
        types,
        hardness,
        epoch,
        trainingEpochs,
        replay,
        repost);
  }

  private static List<PathPattern> patterns(String v) {
    List<PathPattern> list = new ArrayList<>();
    for (String p : v.split(",")) {
      if (!p.isBlank()) {
        list.add(PathPattern.parse(p.trim()));
      }
    }
    if (list.isEmpty()) {
      throw new IllegalArgumentException("must list at least one path pattern");
    }
    return list;
  }

  private static double capacity(String v) {
    if (v.equalsIgnoreCase("auto")) {
      return AUTO;
    }
    double c;
    try {
      c = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      c = Double.NaN;
    }
    if (!(c > 0) || Double.isInfinite(c)) {
      throw new IllegalArgumentException(
          "must be 'auto' or a positive number of subunits per"
              + " second (requests per second when every type has hardness 1)");
    }
    return c;
  }

  private static double hardness(String v) {
    double h;
    try {
      h = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      h = Double.NaN;
    }
    if (!(h > 0) || Double.isInfinite(h)) {
      throw new IllegalArgumentException("must be a positive number of subunits");
    }
    return h;
  }

  private static int seconds(String v, int min, int max) {
    Duration d = Durations.parse(v);
    if (d.compareTo(Duration.ofSeconds(min)) < 0 || d.compareTo(Duration.ofSeconds(max)) > 0) {
      throw new IllegalArgumentException("must be between " + min + "s and " + max + "s");
    }
    // Waits are whole seconds (§III-A): round a fraction up, never shorten what was asked.
    return (int) (d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0));
  }

  private static long integer(String v, long min, long max) {
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be a whole number from " + min + " to " + max);
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("must be a whole number from " + min + " to " + max);
    }
    return n;
  }

  private static String nonBlank(String v) {
    if (v.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    return v;
  }
}
