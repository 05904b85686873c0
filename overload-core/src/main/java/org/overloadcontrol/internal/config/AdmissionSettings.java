package org.overloadcontrol.internal.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.admission.ConcurrencyLimit;
import org.overloadcontrol.limiter.LimiterProvider;

/**
 * Which admission controller each endpoint uses, and the resource groups that share a
 * concurrency limit (keys under {@code admission.}), immutable and validated when the filter
 * starts.
 *
 * <pre>
 *   admission.controller            concurrency (default) | rate | queue-threshold | a registered LimiterProvider's name
 *   admission.groups.&lt;g&gt;.endpoints  endpoints behind one resource, e.g. search,browse
 *   admission.groups.&lt;g&gt;.controller / .maxLimit / .initialLimit
 *   admission.maxLimit              200     the highest limit; adapters default it to the container's threads
 *   admission.initialLimit          maxLimit
 *   admission.window                100ms   a window closes after this ...
 *   admission.windowSamples         100     ... or after this many samples
 *   admission.setpoint              0.9     the p90 aimed at, as a fraction of the target
 *   admission.maxWait               0.7     longest wait for a permit, as a fraction of the target
 *   admission.idleHeadroom          off     or h &gt;= 1: an idle limit comes down toward h × what ran
 * </pre>
 *
 * An endpoint named in no group joins the group {@value #DEFAULT_GROUP}: by default every
 * controlled endpoint of a filter or handler shares one limit, since they usually share the
 * container's threads and one database.
 */
public final class AdmissionSettings {

  /** The group of every endpoint that no {@code admission.groups.<g>.endpoints} names. */
  public static final String DEFAULT_GROUP = "default";

  /** The admission controllers. */
  public enum Controller {
    /** A concurrency limit per resource group aimed at the p90 target (the default). */
    CONCURRENCY,
    /** Welsh &amp; Culler's response-time controlled token bucket per endpoint and class. */
    RATE,
    /**
     * Haboob's queue threshold per endpoint (Welsh et al. 2001, §5.1.4), tuned by the {@code
     * queue.endpoints.<e>.threshold.*} keys.
     */
    QUEUE_THRESHOLD,
    /** An algorithm registered through the admission SPI, named by its {@link LimiterProvider}. */
    PROVIDED
  }

  /**
   * One group's settings.
   *
   * @param provider the registered algorithm when {@code controller} is {@link
   *     Controller#PROVIDED}, else null
   */
  public record Group(
      String name,
      Controller controller,
      int maxLimit,
      int initialLimit,
      LimiterProvider provider) {

    /** A group of a built-in controller. */
    public Group(String name, Controller controller, int maxLimit, int initialLimit) {
      this(name, controller, maxLimit, initialLimit, null);
    }
  }

  /** A controller's name resolved: a built-in one, or the provider registered under it. */
  private record Choice(Controller controller, LimiterProvider provider) {}

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = AdmissionKeyTable.TABLE;
  private static final Pattern GROUP_KEY = KEYS.keysUnder("groups.<g>.");

  private final Controller controller;
  private final LimiterProvider provider;
  private final long windowNanos;
  private final int windowSamples;
  private final double setpoint;
  private final double maxWaitOfTarget;
  private final double idleHeadroom;
  private final Group defaultGroup;
  private final Map<String, Group> groups = new LinkedHashMap<>();
  private final Map<String, Group> byEndpoint = new HashMap<>();

  private AdmissionSettings(ConfigSection s) {
    s.requireOnly(KEYS);
    Map<String, LimiterProvider> registered = registeredProviders();
    Choice chosen =
        s.parse("controller", v -> choice(v, registered), new Choice(Controller.CONCURRENCY, null));
    controller = chosen.controller();
    provider = chosen.provider();
    int maxLimit = s.parse("maxLimit", ConfigSection::positiveInt, 200);
    int initialLimit = s.parse("initialLimit", ConfigSection::positiveInt, maxLimit);
    if (initialLimit > maxLimit) {
      throw s.error("initialLimit", "must not exceed admission.maxLimit (" + maxLimit + ")");
    }
    windowNanos =
        s.parse(
            "window",
            v -> {
              Duration d = Durations.parse(v);
              if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("must be a positive duration");
              }
              return d.toNanos();
            },
            100_000_000L);
    windowSamples = s.parse("windowSamples", ConfigSection::positiveInt, 100);
    setpoint = s.parse("setpoint", v -> fraction(v, false), 0.9);
    maxWaitOfTarget = s.parse("maxWait", v -> fraction(v, true), 0.7);
    idleHeadroom =
        s.parse(
            "idleHeadroom", AdmissionSettings::idleHeadroom, ConcurrencyLimit.IDLE_HEADROOM_OFF);
    defaultGroup = new Group(DEFAULT_GROUP, controller, maxLimit, initialLimit, provider);
    Map<String, Map<String, String>> perGroup = new LinkedHashMap<>();
    for (String key : s.keys()) {
      Matcher m = GROUP_KEY.matcher(key);
      if (m.matches()) {
        perGroup.computeIfAbsent(m.group(1), k -> new HashMap<>()).put(m.group(2), key);
      }
    }
    perGroup.forEach(
        (name, keys) -> {
          String endpointsKey = keys.get("endpoints");
          if (endpointsKey == null) {
            throw s.error(
                keys.values().iterator().next(),
                "group '" + name + "' needs admission.groups." + name + ".endpoints");
          }
          Choice c =
              s.parse(keys.getOrDefault("controller", "-"), v -> choice(v, registered), chosen);
          int max =
              s.parse(keys.getOrDefault("maxLimit", "-"), ConfigSection::positiveInt, maxLimit);
          int initial =
              s.parse(
                  keys.getOrDefault("initialLimit", "-"),
                  ConfigSection::positiveInt,
                  Math.min(max, initialLimit == maxLimit ? max : initialLimit));
          if (initial > max) {
            throw s.error(
                keys.getOrDefault("initialLimit", endpointsKey),
                "must not exceed the group's maxLimit (" + max + ")");
          }
          Group g = new Group(name, c.controller(), max, initial, c.provider());
          groups.put(name, g);
          for (String e : s.get(endpointsKey).split(",")) {
            String endpoint = e.trim();
            if (endpoint.isEmpty()) {
              continue;
            }
            Group before = byEndpoint.put(endpoint, g);
            if (before != null) {
              throw s.error(
                  endpointsKey,
                  "endpoint '" + endpoint + "' is already in group '" + before.name() + "'");
            }
          }
        });
  }

  /**
   * A configuration layer, to go lowest in precedence, that sets {@code admission.maxLimit} to
   * the container's request threads (a limit above them could never be reached, so it would
   * never be judged); null when one of {@code configured} sets an initial limit above them, so
   * that a configuration that started before still starts.
   *
   * @param origin where the number came from, for messages
   */
  public static ConfigSource containerThreads(
      String origin, int threads, List<ConfigSource> configured) {
    for (ConfigSource c : configured) {
      for (Map.Entry<String, String> e : c.values().entrySet()) {
        if (e.getKey().startsWith("admission.")
            && e.getKey().endsWith("initialLimit")
            && above(e.getValue(), threads)) {
          return null;
        }
      }
    }
    return ConfigSource.of(
        origin + " (" + threads + " threads)",
        Map.of("admission.maxLimit", Integer.toString(ceilingFor(threads))));
  }

  /** The fewest request threads a default ceiling leaves the container (see {@link #ceilingFor}). */
  static final int RESERVED_THREADS = 2;

  /**
   * The highest limit the adapters take by default for a container of {@code threads}: two in a
   * hundred under them, at least two. At the threads' own count the limit is never what holds a
   * request back when the threads are the bottleneck: every request that got a thread finds a
   * permit, the rest queue inside the container, before the filter, where no wait is measured or
   * bounded (a 50 ms servlet at three times what 200 threads serve ran at 1.5 × its target,
   * nothing refused). Under it, the requests over the limit wait suspended in the wait queues,
   * holding no thread, under their deadline, and the threads left serve arrivals, refusals and
   * resumed waiters: each for well under a millisecond, against executions of tens to hundreds,
   * so a few threads carry them. A tenth held back cost what it held: on a WAR of 200 threads
   * whose method sleeps 250 ms (the workload matrix, clients that honour {@code Retry-After}) the
   * ceiling of 180 served 0.90–0.93 of the unguarded capacity at three times it and refused
   * 21–27 % of the attempts at exactly it; 196 served 0.97–1.01 and refused 2–10 %, its clients'
   * p90 within the target at three times the capacity all the same.
   */
  public static int ceilingFor(int threads) {
    return Math.max(1, threads - Math.max(RESERVED_THREADS, threads / 50));
  }

  private static boolean above(String value, int threads) {
    try {
      return Integer.parseInt(value.trim()) > threads;
    } catch (NumberFormatException e) {
      return false; // the configuration's own parse names the bad value
    }
  }

  /** Parses the {@code admission.} section of {@code config}. */
  public static AdmissionSettings from(OverloadConfig config) {
    return new AdmissionSettings(config.section("admission"));
  }

  /** The group of endpoint {@code endpoint}: the one that names it, else the default group. */
  public Group groupOf(String endpoint) {
    return byEndpoint.getOrDefault(endpoint, defaultGroup);
  }

  /** Whether some group names {@code endpoint} explicitly. */
  public boolean grouped(String endpoint) {
    return byEndpoint.containsKey(endpoint);
  }

  /**
   * Whether any endpoint may use a controller that counts its requests with the wait queues'
   * permits: the concurrency limit or the queue threshold.
   */
  public boolean anyCountsPermits() {
    return countsPermits(controller)
        || groups.values().stream().anyMatch(g -> countsPermits(g.controller()));
  }

  private static boolean countsPermits(Controller c) {
    return c == Controller.CONCURRENCY || c == Controller.QUEUE_THRESHOLD;
  }

  /** The controller of endpoints that no group names. */
  public Controller controller() {
    return controller;
  }

  public long windowNanos() {
    return windowNanos;
  }

  public int windowSamples() {
    return windowSamples;
  }

  public double setpoint() {
    return setpoint;
  }

  /** The longest wait for a permit of a concurrency group, as a fraction of the target. */
  public double maxWaitOfTarget() {
    return maxWaitOfTarget;
  }

  /**
   * How far above what ran a limit nothing pressed comes down to, after a window that met the
   * target ({@code admission.idleHeadroom}); {@link ConcurrencyLimit#IDLE_HEADROOM_OFF}, the
   * default, leaves it where it is.
   */
  public double idleHeadroom() {
    return idleHeadroom;
  }

  private static double idleHeadroom(String v) {
    if (v.trim().equalsIgnoreCase("off")) {
      return ConcurrencyLimit.IDLE_HEADROOM_OFF;
    }
    double h;
    try {
      h = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number (or off)");
    }
    if (!(h >= 1) || Double.isInfinite(h)) {
      throw new IllegalArgumentException("must be off or a number of at least 1, e.g. 2");
    }
    return h;
  }

  private static Choice choice(String v, Map<String, LimiterProvider> registered) {
    String name = v.toLowerCase(Locale.ROOT);
    switch (name) {
      case "concurrency":
        return new Choice(Controller.CONCURRENCY, null);
      case "rate":
        return new Choice(Controller.RATE, null);
      case "queue-threshold":
        return new Choice(Controller.QUEUE_THRESHOLD, null);
      default:
        LimiterProvider p = registered.get(name);
        if (p == null) {
          StringBuilder allowed = new StringBuilder("allowed: concurrency, rate, queue-threshold");
          registered.keySet().forEach(n -> allowed.append(", ").append(n));
          throw new IllegalArgumentException(allowed.toString());
        }
        return new Choice(Controller.PROVIDED, p);
    }
  }

  /**
   * The admission algorithms registered on the class path, by name. Read at each start and
   * reload, not per request; a provider that takes a built-in's name is ignored, so the keys
   * keep their meaning.
   */
  private static Map<String, LimiterProvider> registeredProviders() {
    Map<String, LimiterProvider> byName = new LinkedHashMap<>();
    for (LimiterProvider p : ServiceLoader.load(LimiterProvider.class)) {
      String name = p.name().toLowerCase(Locale.ROOT);
      if (!name.equals("concurrency") && !name.equals("rate") && !name.equals("queue-threshold")) {
        byName.putIfAbsent(name, p);
      }
    }
    return byName;
  }

  private static double fraction(String v, boolean zeroAllowed) {
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
    if (!(zeroAllowed ? d >= 0 : d > 0) || !(d <= 1)) {
      throw new IllegalArgumentException(zeroAllowed ? "must lie in [0, 1]" : "must lie in (0, 1]");
    }
    return d;
  }
}
