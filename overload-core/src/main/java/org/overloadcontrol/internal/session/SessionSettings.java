package org.overloadcontrol.internal.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.classify.PathPattern;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Durations;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The validated {@code sessions.*} section: session-aware admission (Cherkasova &amp; Phaal,
 * "Session-based admission control", 2002). Off by default.
 *
 * <pre>
 * key                        default      meaning
 * sessions.enabled           false        admit sessions, not single requests
 * sessions.cookie            oc_session   name of the signed cookie set on admission
 * sessions.header            -            a header whose value names an API client's session
 * sessions.containerSession  false        a valid container session id names the session too
 * sessions.idleTimeout       10m          an admitted session idle this long expires
 * sessions.maxLifetime       2h           and any admitted session after this long
 * sessions.maxSessions       10000        admitted sessions held at once; then new ones are refused
 * sessions.headroom          1.0          admitted sessions' requests may fill this share of throughput
 * sessions.maxWait           0.8          an admitted session's request waits up to this share of its target
 * sessions.window            1s           the window over which rates are measured
 * sessions.completionPaths   -            paths whose completed request ends its session
 * sessions.keyFile / keyEnv  -            HMAC keys of the cookie (else the virtual queue's, else random)
 * </pre>
 */
public record SessionSettings(
    boolean enabled,
    String cookieName,
    String header,
    boolean containerSession,
    long idleTimeoutNanos,
    long maxLifetimeNanos,
    int maxSessions,
    double headroom,
    double maxWaitOfTarget,
    long windowNanos,
    List<PathPattern> completionPaths,
    String keyFile,
    String keyEnv) {

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = SessionKeyTable.TABLE;

  /** RFC 6265 token characters, so the name needs no quoting. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");

  public SessionSettings {
    completionPaths = List.copyOf(completionPaths);
  }

  /**
   * Parses and validates the section.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key and value
   */
  public static SessionSettings from(ConfigSection s) {
    s.requireOnly(KEYS);
    boolean enabled = s.parse("enabled", ConfigSection::bool, false);
    String cookie = s.parse("cookie", v -> token(v, "a cookie name"), "oc_session");
    String header = s.parse("header", v -> token(v, "a header name"), null);
    boolean container = s.parse("containerSession", ConfigSection::bool, false);
    long idle =
        s.parse(
            "idleTimeout",
            v -> nanos(v, "1s", "24h", Duration.ofSeconds(1), Duration.ofDays(1)),
            Duration.ofMinutes(10).toNanos());
    long life =
        s.parse(
            "maxLifetime",
            v -> nanos(v, "1s", "720h", Duration.ofSeconds(1), Duration.ofDays(30)),
            Duration.ofHours(2).toNanos());
    if (life < idle && s.get("maxLifetime") != null) {
      throw s.error(
          "maxLifetime", "must be at least sessions.idleTimeout (" + Duration.ofNanos(idle) + ")");
    }
    int max = s.parse("maxSessions", v -> (int) integer(v, 1, 10_000_000), 10_000);
    double headroom = s.parse("headroom", SessionSettings::fraction, 1.0);
    double maxWait = s.parse("maxWait", SessionSettings::fraction, 0.8);
    long window =
        s.parse(
            "window",
            v -> nanos(v, "100ms", "1m", Duration.ofMillis(100), Duration.ofMinutes(1)),
            Duration.ofSeconds(1).toNanos());
    List<PathPattern> paths = s.parse("completionPaths", SessionSettings::patterns, List.of());
    String keyFile = s.parse("keyFile", SessionSettings::nonBlank, null);
    String keyEnv = s.parse("keyEnv", SessionSettings::nonBlank, null);
    if (keyFile != null && keyEnv != null) {
      throw s.error("keyEnv", "give either sessions.keyFile or sessions.keyEnv, not both");
    }
    return new SessionSettings(
        enabled,
        cookie,
        header,
        container,
        idle,
        Math.max(idle, life),
        max,
        headroom,
        maxWait,
        window,
        paths,
        keyFile,
        keyEnv);
  }

  /**
   * How long a request of an admitted session may wait for a permit when its class's target
   * is {@code targetNanos} (0: no target, no bound of its own); at least the limit's own bound
   * ({@code admission.maxWait}). Longer, because a request refused mid-session loses the whole
   * session's work: by default 0.8 of the target against the limit's 0.5. The concurrency limit
   * counts such a wait only up to its own bound ({@code ConcurrencyGroup.Partition#record}):
   * before it did, the late responses cut the shop's limit, and its goodput, to half.
   */
  public long maxWaitNanos(long targetNanos) {
    return targetNanos > 0
        ? Math.max(1L, Math.round(targetNanos * maxWaitOfTarget))
        : Long.MAX_VALUE;
  }

  /** Whether the completed request at {@code path} ends its session. */
  public boolean completes(String path) {
    for (PathPattern p : completionPaths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }

  private static String token(String v, String what) {
    if (!TOKEN.matcher(v).matches()) {
      throw new IllegalArgumentException(
          "must be " + what + ": 1-64 letters, digits or" + " !#$%&'*+.^_`|~-");
    }
    return v;
  }

  private static long nanos(String v, String minText, String maxText, Duration min, Duration max) {
    Duration d = Durations.parse(v);
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          "must be a duration between " + minText + " and " + maxText);
    }
    return d.toNanos();
  }

  private static long integer(String v, long min, long max) {
    long n;
    try {
      n = Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      n = Long.MIN_VALUE;
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("must be a whole number from " + min + " to " + max);
    }
    return n;
  }

  private static double fraction(String v) {
    double d;
    try {
      d = Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      d = Double.NaN;
    }
    if (!(d > 0 && d <= 1)) {
      throw new IllegalArgumentException("must be a number above 0 and at most 1");
    }
    return d;
  }

  private static List<PathPattern> patterns(String v) {
    List<PathPattern> list = new ArrayList<>();
    for (String p : v.split(",")) {
      if (!p.isBlank()) {
        list.add(PathPattern.parse(p.trim()));
      }
    }
    return list;
  }

  private static String nonBlank(String v) {
    if (v.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    return v.trim();
  }
}
