package org.overloadcontrol.it.experiments;

import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.peers.ConcurrencyLimitFilter;
import org.overloadcontrol.it.peers.Peers;
import org.overloadcontrol.it.support.ContainerHooks;

/**
 * One way of guarding the sample shop in the peer experiments: our filter in some
 * configuration (an operator YAML layered over the shop's own), or our filter switched off and
 * a peer around the same WAR.
 *
 * @param name short name, as {@code -Dexperiment.variants} selects it
 * @param description what it is, for the reports
 * @param overloadYaml the operator YAML for our filter
 * @param guard adds the peer around the application (identity for our filter's variants)
 */
record Variant(
    String name, String description, String overloadYaml, UnaryOperator<ContainerHooks> guard) {

  /** Response-time targets of the shop at time scale 1 (its annotations). */
  static final Duration BROWSING_TARGET = Duration.ofMillis(2000);

  static final Duration TRANSACTION_TARGET = Duration.ofMillis(1500);

  private static final String OFF = "enabled: false\n";

  /**
   * A probe multiplier no run reaches: Vegas then keeps the smallest RTT it ever saw as its
   * no-load RTT.
   */
  private static final int NEVER_PROBE = 1_000_000;

  /** A page's p90 target at {@code timeScale}; null for pages without one (the cart). */
  static Duration target(ShopRequest page, double timeScale) {
    if (page == ShopRequest.CART) {
      return null;
    }
    Duration t = page.browsing() ? BROWSING_TARGET : TRANSACTION_TARGET;
    return Duration.ofNanos(Math.round(t.toNanos() * timeScale));
  }

  /**
   * Every variant, for the shop at {@code timeScale} with {@code dbConnections} database
   * connections (its bottleneck):
   *
   * <ul>
   *   <li>{@code none}: no guard at all (our filter {@code enabled: false});
   *   <li>{@code shipped}: our filter with the shop's shipped configuration (its
   *       {@code overload.yaml}: session-aware admission with the confirm page completing a
   *       session, every page with a target in one concurrency group, 6 execution permits in
   *       LIFO-Pri queues, the virtual queue on confirm, bandwidth shares on images; search
   *       degradable), with the targets scaled to the time scale as the workload is;
   *   <li>{@code no-sessions}: {@code shipped} with session-aware admission off;
   *   <li>{@code default}: the same with the admission controller named explicitly as the
   *       library's default ({@code admission.controller: concurrency}, the shop's group kept)
   *       and search not degradable (its database time does not depend on
   *       its quality, and a degradable endpoint is outside the concurrency limit),
   *       session-aware admission off: what a user gets who only sets targets;
   *   <li>{@code idle-headroom}: {@code default} with the opt-in {@code
   *       admission.idleHeadroom: 2} (an idle limit comes down toward twice what ran);
   *   <li>{@code rate}: {@code default} with {@code admission.controller: rate}, the mended token
   *       bucket controller with the shop's parameters (initial rate 20/s, bucket depth 10);
   *   <li>{@code paper}: {@code rate} with the published parameters (initial rate 100/s,
   *       bucket depth 1) and {@code judgeOnFreshSamples: false}, Welsh &amp; Culler's
   *       controller exactly;
   *   <li>{@code qos}: Jetty 12's {@code QoSHandler} around the WAR, {@code maxRequestCount}
   *       = the database connections (the handler's documentation suggests it for a limited
   *       resource such as a JDBC pool; the shop's pages hold a connection for all their
   *       work), {@code maxSuspend} = the browsing target (a request that waited that long
   *       cannot meet it; the handler's default is to wait forever), other settings at their
   *       defaults (1024 suspended, all of priority 0);
   *   <li>{@code ncl-vegas}, {@code ncl-gradient2}: Netflix concurrency-limits'
   *       {@code SimpleLimiter} with {@code VegasLimit.newDefault()} /
   *       {@code Gradient2Limit.newDefault()} in our Jakarta port of its servlet filter,
   *       refusing with its default 429;
   *   <li>{@code ncl-vegas-noprobe}: {@code ncl-vegas} whose limit never probes (resets) its
   *       no-load RTT, so it keeps the smallest RTT it saw: a check of whether the probe is
   *       what lets Vegas run pages over their targets (docs/results.md §10; it is not).
   * </ul>
   */
  static List<Variant> all(double timeScale, int dbConnections) {
    String targets =
        ExperimentShop.targets(
            millis(BROWSING_TARGET, timeScale), millis(TRANSACTION_TARGET, timeScale));
    // The shop's search is @Degradable, but holds its database connection as long at any
    // quality: degrading it only lowers its result count, and a degradable endpoint is
    // outside the concurrency limit (its token buckets are off until quality reaches q_min),
    // so it would take the database from under the limit. `shipped` keeps it as shipped.
    // These variants compare admission controllers request by request: sessions off.
    String ours =
        targets
            + "degrade: {endpoints: {search: {enabled: false}}}\n"
            + "sessions: {enabled: false}\n";
    String defaults = ours + "admission: {controller: concurrency}\n";
    String rate = ours + "admission: {controller: rate}\n";
    String paper =
        rate + "controller: {initialRate: 100, bucketDepth: 1, judgeOnFreshSamples: false}\n";
    Duration maxSuspend = Duration.ofNanos(Math.round(BROWSING_TARGET.toNanos() * timeScale));
    // -Dexperiment.sessions="headroom: 0.7, maxWait: 0.5" tries other sessions.* values on
    // `shipped` (default the shop's).
    String sessionKeys = System.getProperty("experiment.sessions", "");
    String shipped =
        targets + (sessionKeys.isBlank() ? "" : "sessions: {" + sessionKeys.trim() + "}\n");
    List<Variant> v = new ArrayList<>();
    v.add(new Variant("none", "no guard (our filter `enabled: false`)", OFF, h -> h));
    v.add(
        new Variant(
            "shipped",
            "our filter, the shop's shipped configuration (session-aware"
                + " admission, every page in one concurrency group; targets scaled)",
            shipped,
            h -> h));
    v.add(
        new Variant(
            "no-sessions",
            "our filter, `shipped` with session-aware admission off",
            targets + "sessions: {enabled: false}\n",
            h -> h));
    v.add(
        new Variant(
            "default",
            "our filter, admission by the library's default controller"
                + " (`admission.controller: concurrency`, targets scaled, search not degradable)",
            defaults,
            h -> h));
    v.add(
        new Variant(
            "idle-headroom",
            "our filter, `default` with `admission.idleHeadroom: 2`",
            ours + "admission: {controller: concurrency, idleHeadroom: 2}\n",
            h -> h));
    v.add(
        new Variant(
            "rate",
            "our filter, `admission.controller: rate` with the shop's"
                + " parameters (initial rate 20/s, bucket depth 10)",
            rate,
            h -> h));
    v.add(
        new Variant(
            "paper",
            "our filter, `rate` at the published parameters with" + " `judgeOnFreshSamples: false`",
            paper,
            h -> h));
    v.add(
        new Variant(
            "qos",
            String.format(
                Locale.ROOT,
                "Jetty QoSHandler, maxRequestCount %d," + " maxSuspend %d ms",
                dbConnections,
                maxSuspend.toMillis()),
            OFF,
            h -> Peers.qosHandler(h, dbConnections, maxSuspend)));
    v.add(
        new Variant(
            "ncl-vegas",
            "Netflix concurrency-limits, VegasLimit defaults",
            OFF,
            h ->
                Peers.concurrencyLimit(
                    h, VegasLimit.newDefault(), ConcurrencyLimitFilter.TOO_MANY_REQUESTS)));
    v.add(
        new Variant(
            "ncl-vegas-noprobe",
            "Netflix concurrency-limits, VegasLimit defaults but never probing its no-load RTT",
            OFF,
            h ->
                Peers.concurrencyLimit(
                    h,
                    VegasLimit.newBuilder().probeMultiplier(NEVER_PROBE).build(),
                    ConcurrencyLimitFilter.TOO_MANY_REQUESTS)));
    v.add(
        new Variant(
            "ncl-gradient2",
            "Netflix concurrency-limits, Gradient2Limit defaults",
            OFF,
            h ->
                Peers.concurrencyLimit(
                    h, Gradient2Limit.newDefault(), ConcurrencyLimitFilter.TOO_MANY_REQUESTS)));
    return v;
  }

  /**
   * The variants {@code -Dexperiment.variants} names (comma-separated), in its order; all of
   * them when it is empty or unset.
   */
  static List<Variant> selected(double timeScale, int dbConnections) {
    List<Variant> all = all(timeScale, dbConnections);
    String wanted = System.getProperty("experiment.variants", "").trim();
    if (wanted.isEmpty()) {
      return all;
    }
    List<Variant> out = new ArrayList<>();
    for (String name : wanted.split(",")) {
      out.add(
          all.stream()
              .filter(v -> v.name().equals(name.trim()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "experiment.variants: unknown '"
                              + name.trim()
                              + "'; known: "
                              + Arrays.toString(all.stream().map(Variant::name).toArray()))));
    }
    return out;
  }

  private static String millis(Duration d, double timeScale) {
    return Math.round(d.toMillis() * timeScale) + "ms";
  }
}
