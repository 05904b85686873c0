package org.overloadcontrol.internal.bandwidth;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.ClassRule.NameValue;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Durations;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The validated, immutable settings of bandwidth shaping, read from the {@code bandwidth.}
 * configuration section (Li &amp; Jamin §IV: the total bandwidth B and each group's address
 * rule and percentage). Nothing falls back silently: an unknown key, a malformed value, a group
 * without a share or shares above 100 % fail at start with a message naming the key.
 *
 * <p>Groups are tried in the order their keys first appear in configuration; a request that no
 * group matches goes to {@code defaultGroup}, or is not shaped at all when there is none.
 */
public final class BandwidthSettings {

  /** EWMA weight of a new perceived-bandwidth sample (the paper found 0.05 to 0.30 good). */
  public static final double DEFAULT_ALPHA = 0.2;

  /** Weight of the zero the manager averages into an idle group's bandwidth each period. */
  public static final double DEFAULT_IDLE_ALPHA = 0.3;

  /** The manager's period; the paper: "once every half to one second". */
  public static final Duration DEFAULT_MANAGER_PERIOD = Duration.ofMillis(500);

  public static final int DEFAULT_STANDBY_LIMIT = 4;
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CACHE_EXPIRY = Duration.ofMinutes(10);

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = BandwidthKeyTable.TABLE;
  private static final Pattern GROUP_KEY = KEYS.keysUnder("groups.<g>.");
  private static final Pattern GROUP_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private final boolean enabled;
  private final double totalBytesPerSecond;
  private final List<ClientGroup> groups;
  private final ClientGroup defaultGroup;
  private final double alpha;
  private final double idleAlpha;
  private final long managerPeriodNanos;
  private final Measure measure;
  private final int standbyLimit;
  private final long maxDelayNanos;
  private final long cacheExpiryNanos;
  private final List<org.overloadcontrol.internal.classify.PathPattern> paths;

  private BandwidthSettings(Builder b) {
    this.paths = List.copyOf(b.paths);
    this.enabled = b.enabled;
    this.totalBytesPerSecond = b.totalBytesPerSecond;
    this.groups = List.copyOf(b.groups);
    this.defaultGroup = b.defaultGroup;
    this.alpha = b.alpha;
    this.idleAlpha = b.idleAlpha;
    this.managerPeriodNanos = b.managerPeriodNanos;
    this.measure = b.measure;
    this.standbyLimit = b.standbyLimit;
    this.maxDelayNanos = b.maxDelayNanos;
    this.cacheExpiryNanos = b.cacheExpiryNanos;
  }

  /** Shaping switched off: what an empty {@code bandwidth.} section gives. */
  public static BandwidthSettings disabled() {
    Builder b = new Builder();
    b.enabled = false;
    b.totalBytesPerSecond = 1;
    return new BandwidthSettings(b);
  }

  /**
   * Reads and validates a {@code bandwidth.} section.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key at fault
   */
  public static BandwidthSettings from(ConfigSection section) {
    if (section.isEmpty()) {
      return disabled();
    }
    section.requireOnly(KEYS);
    Builder b = new Builder();
    b.enabled = section.parse("enabled", ConfigSection::bool, true);
    if (section.get("total") == null) {
      // Blame a key the user wrote: the missing one has no value or layer to show.
      throw section.error(
          section.keys().iterator().next(),
          "bandwidth.total is required when bandwidth shaping is configured; " + ByteRates.ALLOWED);
    }
    b.totalBytesPerSecond = section.parse("total", ByteRates::parseBytesPerSecond, null);
    b.alpha = section.parse("alpha", v -> fraction(v, "alpha"), DEFAULT_ALPHA);
    b.idleAlpha = section.parse("idleAlpha", v -> fraction(v, "idleAlpha"), DEFAULT_IDLE_ALPHA);
    b.managerPeriodNanos =
        section.parse(
            "managerPeriod",
            v -> durationBetween(v, Duration.ofMillis(10), Duration.ofSeconds(60)),
            DEFAULT_MANAGER_PERIOD.toNanos());
    b.measure = section.parse("measure", BandwidthSettings::measure, Measure.THROUGHPUT);
    b.standbyLimit =
        section.parse("standbyLimit", ConfigSection::positiveInt, DEFAULT_STANDBY_LIMIT);
    b.maxDelayNanos =
        section.parse(
            "maxDelay",
            v -> durationBetween(v, Duration.ofMillis(1), Duration.ofHours(1)),
            DEFAULT_MAX_DELAY.toNanos());
    b.cacheExpiryNanos =
        section.parse(
            "cacheExpiry",
            v -> durationBetween(v, Duration.ofMillis(1), Duration.ofDays(1)),
            DEFAULT_CACHE_EXPIRY.toNanos());
    if (b.cacheExpiryNanos < 2 * b.managerPeriodNanos) {
      throw section.error(
          section.get("cacheExpiry") != null ? "cacheExpiry" : "managerPeriod",
          "cacheExpiry must be at least twice managerPeriod, or a group's state would expire"
              + " between two manager rounds");
    }
    if (section.get("paths") != null) {
      java.util.List<org.overloadcontrol.internal.classify.PathPattern> patterns =
          new java.util.ArrayList<>();
      for (String p : section.get("paths").split(",")) {
        if (!p.isBlank()) {
          patterns.add(
              section.parse(
                  "paths", v -> org.overloadcontrol.internal.classify.PathPattern.parse(p), null));
        }
      }
      b.paths = patterns;
    }
    readGroups(section, b);
    return new BandwidthSettings(b);
  }

  private static void readGroups(ConfigSection section, Builder b) {
    Map<String, Map<String, String>> byGroup = new LinkedHashMap<>();
    for (String key : section.keys()) {
      Matcher m = GROUP_KEY.matcher(key);
      if (m.matches()) {
        if (!GROUP_NAME.matcher(m.group(1)).matches()) {
          throw section.error(
              key, "group name '" + m.group(1) + "' may use only letters, digits, '_' and '-'");
        }
        byGroup.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2), key);
      }
    }
    if (byGroup.isEmpty()) {
      throw section.error(
          "total",
          "no client groups; define at least one with"
              + " bandwidth.groups.<group>.share and bandwidth.groups.<group>.match.client");
    }
    String defaultName = section.get("defaultGroup");
    double sum = 0;
    String lastShareKey = null;
    for (Map.Entry<String, Map<String, String>> e : byGroup.entrySet()) {
      String name = e.getKey();
      Map<String, String> keys = e.getValue();
      String shareKey = "groups." + name + ".share";
      if (!keys.containsKey("share")) {
        throw section.error(
            keys.values().iterator().next(),
            "group '"
                + name
                + "' has no share; set "
                + section.fullKey(shareKey)
                + " to a percentage such as"
                + " 25%");
      }
      double share = section.parse(shareKey, BandwidthSettings::percent, null);
      sum += share;
      lastShareKey = shareKey;
      AddressMatcher clients =
          section.parse(
              "groups." + name + ".match.client",
              v -> AddressMatcher.parse(Arrays.asList(v.split(","))),
              AddressMatcher.none());
      NameValue header = section.parse("groups." + name + ".match.header", NameValue::parse, null);
      NameValue cookie = section.parse("groups." + name + ".match.cookie", NameValue::parse, null);
      GroupRule rule = new GroupRule(clients, header, cookie);
      if (rule.isEmpty() && !name.equals(defaultName)) {
        throw section.error(
            shareKey,
            "group '"
                + name
                + "' matches no request; set"
                + " match.client, match.header or match.cookie, or name it in "
                + section.fullKey("defaultGroup"));
      }
      ClientGroup group = new ClientGroup(name, share, b.totalBytesPerSecond * share / 100.0, rule);
      b.groups.add(group);
      if (name.equals(defaultName)) {
        b.defaultGroup = group;
      }
    }
    if (sum > 100.0 + 1e-9) {
      throw section.error(
          lastShareKey, "the shares add up to " + trim(sum) + " %; they must not exceed 100 %");
    }
    if (defaultName != null && b.defaultGroup == null) {
      throw section.error(
          "defaultGroup", "no group '" + defaultName + "'; the groups are " + byGroup.keySet());
    }
  }

  private static String trim(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  static double percent(String text) {
    String s = text.trim();
    if (s.endsWith("%")) {
      s = s.substring(0, s.length() - 1).trim();
    }
    double v;
    try {
      v = Double.parseDouble(s);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v >= 0 && v <= 100)) {
      throw new IllegalArgumentException(
          "a share is a percentage from 0% to 100%, such as 25%" + " (0% refuses the group)");
    }
    return v;
  }

  private static double fraction(String text, String name) {
    double v;
    try {
      v = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v > 0 && v <= 1)) {
      throw new IllegalArgumentException(
          name + " is a weight in (0, 1]; the paper found 0.05" + " to 0.30 good");
    }
    return v;
  }

  private static long durationBetween(String text, Duration min, Duration max) {
    Duration d = Durations.parse(text);
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException("must be between " + min + " and " + max);
    }
    return d.toNanos();
  }

  private static Measure measure(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "throughput" -> Measure.THROUGHPUT;
      case "perrequest", "per-request" -> Measure.PER_REQUEST;
      default -> throw new IllegalArgumentException("allowed: throughput, perRequest");
    };
  }

  public boolean enabled() {
    return enabled;
  }

  /** B, the configured total bandwidth, in bytes per second. */
  public double totalBytesPerSecond() {
    return totalBytesPerSecond;
  }

  /** The groups in matching order. */
  public List<ClientGroup> groups() {
    return groups;
  }

  /** The group for requests no rule matches, if configured. */
  public Optional<ClientGroup> defaultGroup() {
    return Optional.ofNullable(defaultGroup);
  }

  /** α of equation 2, the weight of each new perceived-bandwidth sample. */
  public double alpha() {
    return alpha;
  }

  /** The weight of zero averaged into an idle group's bandwidth each manager period. */
  public double idleAlpha() {
    return idleAlpha;
  }

  /**
   * Whether requests to {@code path} are shaped: every path when {@code bandwidth.paths} is not
   * set, else those matching one of its patterns (e.g. only {@code /images/*}).
   */
  public boolean shapes(String path) {
    if (paths.isEmpty()) {
      return true;
    }
    for (org.overloadcontrol.internal.classify.PathPattern p : paths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }

  public long managerPeriodNanos() {
    return managerPeriodNanos;
  }

  /** What a group's measured bandwidth b̂ averages. */
  public Measure measure() {
    return measure;
  }

  /** How many delayed requests a group may have; one more is refused with 429. */
  public int standbyLimit() {
    return standbyLimit;
  }

  /** A request whose computed delay exceeds this is refused rather than delayed. */
  public long maxDelayNanos() {
    return maxDelayNanos;
  }

  /** How long a group's measurements are kept after its last request. */
  public long cacheExpiryNanos() {
    return cacheExpiryNanos;
  }

  /** A builder for tests and the Jetty module's Java configuration. */
  public static Builder builder(double totalBytesPerSecond) {
    Builder b = new Builder();
    b.totalBytesPerSecond = totalBytesPerSecond;
    return b;
  }

  /** Builds settings in code; {@link #build()} checks the shares as {@link #from} does. */
  public static final class Builder {
    private boolean enabled = true;
    private double totalBytesPerSecond;
    private final List<ClientGroup> groups = new ArrayList<>();
    private ClientGroup defaultGroup;
    private double alpha = DEFAULT_ALPHA;
    private double idleAlpha = DEFAULT_IDLE_ALPHA;
    private long managerPeriodNanos = DEFAULT_MANAGER_PERIOD.toNanos();
    private Measure measure = Measure.THROUGHPUT;
    private int standbyLimit = DEFAULT_STANDBY_LIMIT;
    private long maxDelayNanos = DEFAULT_MAX_DELAY.toNanos();
    private long cacheExpiryNanos = DEFAULT_CACHE_EXPIRY.toNanos();
    private List<org.overloadcontrol.internal.classify.PathPattern> paths = List.of();

    private Builder() {}

    /** Adds a group with {@code sharePercent} of the total. */
    public Builder group(String name, double sharePercent, GroupRule rule) {
      groups.add(
          new ClientGroup(name, sharePercent, totalBytesPerSecond * sharePercent / 100, rule));
      return this;
    }

    public Builder alpha(double alpha) {
      this.alpha = alpha;
      return this;
    }

    public Builder idleAlpha(double idleAlpha) {
      this.idleAlpha = idleAlpha;
      return this;
    }

    public Builder managerPeriod(Duration period) {
      this.managerPeriodNanos = period.toNanos();
      return this;
    }

    public Builder measure(Measure measure) {
      this.measure = java.util.Objects.requireNonNull(measure, "measure");
      return this;
    }

    public Builder standbyLimit(int standbyLimit) {
      this.standbyLimit = standbyLimit;
      return this;
    }

    public Builder maxDelay(Duration maxDelay) {
      this.maxDelayNanos = maxDelay.toNanos();
      return this;
    }

    public Builder cacheExpiry(Duration expiry) {
      this.cacheExpiryNanos = expiry.toNanos();
      return this;
    }

    public BandwidthSettings build() {
      double sum = groups.stream().mapToDouble(ClientGroup::sharePercent).sum();
      if (!(totalBytesPerSecond > 0)
          || sum > 100.0 + 1e-9
          || !(alpha > 0 && alpha <= 1)
          || !(idleAlpha > 0 && idleAlpha <= 1)
          || standbyLimit < 1
          || managerPeriodNanos <= 0
          || cacheExpiryNanos < 2 * managerPeriodNanos) {
        throw new IllegalArgumentException(
            "invalid bandwidth settings: total="
                + totalBytesPerSecond
                + " B/s, shares="
                + sum
                + " %, alpha="
                + alpha
                + ", idleAlpha="
                + idleAlpha
                + ", standbyLimit="
                + standbyLimit);
      }
      return new BandwidthSettings(this);
    }
  }
}
