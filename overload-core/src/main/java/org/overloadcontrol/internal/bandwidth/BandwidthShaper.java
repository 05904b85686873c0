package org.overloadcontrol.internal.bandwidth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.cluster.ClusterExchange;
import org.overloadcontrol.internal.cluster.ClusterPart;

/**
 * Per-group bandwidth shares by measured delay injection: Li &amp; Jamin, "A Measurement-Based
 * Admission-Controlled Web Server" (§V). The container-free facade an adapter asks about each
 * request, and the home of the paper's Bandwidth Manager task.
 *
 * <p>Per request ({@link #decide}): find the client group; a 0 % group is refused (403). Set the
 * group's active flag, take the response size (known in advance, else the group's recent mean),
 * compute unsatisfaction, the available bandwidth d_i and the delay of equation 3 from the
 * current measurements (see {@link AvailableBandwidth}). No delay: admit. A delay: the request
 * enters the group's delayed stage, unless {@code standbyLimit} requests are already there or the
 * delay exceeds {@code maxDelay}, in which case it is refused with 429 and Retry-After (the
 * client is over its share; the server is not down). The adapter holds a delayed request on a
 * timer and reports through the {@link BandwidthTicket}: delay over, response sent (bytes), or
 * abandoned.
 *
 * <p>Measurement: each completed response gives a perceived bandwidth, bytes over its response
 * time with the delay included (equation 1), averaged per group with weight α (equation 2).
 *
 * <p>Manager ({@link #managerRound()}, which the adapter runs every {@code managerPeriod}, the
 * paper's half to one second; tests call it by hand): an idle group has zero averaged into its
 * bandwidth, every active flag is cleared, and Â, the maximum measured total Σ b̂_j, is raised
 * when the sum exceeds it (it starts at B, §V.C, and corrects itself upward when the server
 * proves faster).
 *
 * <p>State: one {@link GroupMeter} per group in a Caffeine cache that expires a group's state
 * {@code cacheExpiry} after its last request, bounded in size by the number of configured
 * groups. Nothing is keyed by client address, so a scan from many addresses grows nothing.
 * Time comes only from the injected {@link Ticker}, which also drives the cache's expiry.
 *
 * <p>Concurrency: a decision reads the groups' averages without a lock (a decision made on
 * measurements one completion old is as good as the paper's semaphore-guarded one); writes go
 * through each meter's CAS loops. The manager round is synchronized so that two scheduler
 * ticks never interleave; requests never take that lock.
 *
 * <p>A farm of several nodes (a {@link ClusterPart}): the shares are meant for the whole farm
 * and B is the farm's total. At every exchange each node reports its groups' b̂, their arrivals
 * and active flags, and takes in the other nodes'. Equations 4 to 9 then run on the farm's
 * numbers (b̂ summed over nodes for the {@code throughput} measure, arrival-weighted for
 * {@code per-request}, active on any node), and with the {@code throughput} measure the
 * d_i a node paces its responses to is the farm's d_i times the node's part of the group's
 * arrivals, as WebQ divides capacity in proportion to incoming load (Suresh et al., §III-B,
 * equation 1). Alone nothing is reported and nothing changes.
 */
public final class BandwidthShaper implements ClusterPart {

  /**
   * Request attribute an application (or an earlier filter or handler) sets to a {@link Number}
   * of bytes when the response size is known in advance, e.g. a static file's length; without
   * it the group's recent mean response size is used.
   */
  public static final String SIZE_ATTRIBUTE = "org.overloadcontrol.bandwidth.size";

  private static final long ONE_SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final BandwidthSettings settings;
  private final Ticker ticker;
  private final Cache<String, GroupMeter> meters;
  private final List<ClientGroup> groups;
  // Written only in the synchronized manager round, read by every decision.
  private volatile double maxMeasuredBytesPerSecond;
  private long lastRoundNanos = Long.MIN_VALUE; // guarded by this

  /** The other nodes' groups, by group index; written by the exchange, read by decisions. */
  private volatile Farm farm;

  private final long[] reportedArrivals; // guarded by this

  /** The members the cluster expects, this node included; 1 alone. */
  private volatile int expectedNodes = 1;

  /** Whether an exchange has ever brought another node's report. */
  private volatile boolean heardOthers;

  /**
   * The part of each group's farm-wide d_i this node paces the group to, set by the exchange
   * ({@link #apply}); NaN before the first exchange that heard another node. Replaced whole.
   */
  private volatile double[] parts;

  /**
   * Each group's arrivals here per exchange, averaged with weight {@link #ARRIVALS_ALPHA}: one
   * exchange period holds too few requests to split a group's bandwidth by. Replaced whole,
   * never written.
   */
  private volatile double[] localArrivals;

  /** An average over about 2.5 s, whatever the exchange period. */
  private static final double ARRIVALS_ALPHA = 1 - Math.exp(-ClusterExchange.PERIOD_NANOS / 2.5e9);

  /**
   * The other nodes' part of each group: b̂ summed (for {@code per-request}, b̂ × arrivals
   * summed), arrivals summed, active on any; {@code nodes} is how many reported.
   */
  private record Farm(double[] rates, double[] arrivals, boolean[] active, int nodes) {}

  public BandwidthShaper(BandwidthSettings settings, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.groups = settings.groups();
    this.maxMeasuredBytesPerSecond = settings.totalBytesPerSecond();
    this.farm =
        new Farm(
            new double[groups.size()], new double[groups.size()], new boolean[groups.size()], 0);
    this.reportedArrivals = new long[groups.size()];
    this.localArrivals = new double[groups.size()];
    this.parts = new double[groups.size()];
    java.util.Arrays.fill(parts, Double.NaN);
    this.meters =
        Caffeine.newBuilder()
            .expireAfterAccess(settings.cacheExpiryNanos(), TimeUnit.NANOSECONDS)
            .maximumSize(Math.max(1, groups.size()))
            .ticker(ticker::read)
            .executor(Runnable::run) // maintenance on the caller: deterministic, no pool threads
            .build();
  }

  public BandwidthSettings settings() {
    return settings;
  }

  /**
   * Whether requests to {@code path} (decoded, within the application) are shaped: shaping is on
   * and {@code bandwidth.paths}, if set, matches it.
   */
  public boolean shapes(String path) {
    return settings.enabled() && settings.shapes(path);
  }

  /** The size in {@link #SIZE_ATTRIBUTE}'s value, or −1 when it holds no size. */
  public static long declaredSize(Object attributeValue) {
    return attributeValue instanceof Number n && n.longValue() >= 0 ? n.longValue() : -1;
  }

  /** The group a request belongs to: the first whose rule matches, else the default, else null. */
  public ClientGroup groupOf(RequestAttributes request) {
    for (ClientGroup g : groups) {
      if (g.rule().matches(request)) {
        return g;
      }
    }
    return settings.defaultGroup().orElse(null);
  }

  /**
   * Decides about a request.
   *
   * @param request the request's attributes (its client address resolved through trusted
   *     proxies)
   * @param knownSizeBytes the response size when known in advance (a static file, a declared
   *     size), or a negative number to use the group's recent mean
   */
  public ShapingDecision decide(RequestAttributes request, long knownSizeBytes) {
    if (!settings.enabled()) {
      return ShapingDecision.unshaped();
    }
    ClientGroup group = groupOf(request);
    return group == null ? ShapingDecision.unshaped() : decide(group, knownSizeBytes);
  }

  /** Decides about a request of {@code group}; see {@link #decide(RequestAttributes, long)}. */
  public ShapingDecision decide(ClientGroup group, long knownSizeBytes) {
    if (group.isRejected()) {
      return ShapingDecision.reject(403, 0, ShapingDecision.ZERO_SHARE);
    }
    GroupMeter meter = meters.get(group.name(), k -> new GroupMeter(group, settings.measure()));
    meter.markActive();
    long now = ticker.read();
    double size = knownSizeBytes >= 0 ? knownSizeBytes : meter.meanSizeBytes();
    long delayNanos = delayNanos(meter, size);
    if (delayNanos == 0) {
      meter.admittedCount.increment();
      return ShapingDecision.admit(
          new BandwidthTicket(meter, ticker, settings.alpha(), now, false));
    }
    long waitNanos = saturatedAdd(meter.laneWaitNanos(now), delayNanos);
    if (waitNanos > settings.maxDelayNanos()) {
      meter.refusedCount.increment();
      return ShapingDecision.reject(429, settings.maxDelayNanos(), ShapingDecision.DELAY_TOO_LONG);
    }
    if (!meter.tryEnterStandby(settings.standbyLimit())) {
      meter.refusedCount.increment();
      return ShapingDecision.reject(
          429, Math.max(waitNanos, ONE_SECOND_NANOS), ShapingDecision.STANDBY_FULL);
    }
    long sendNanos = Math.round(size / maxMeasuredBytesPerSecond * 1e9);
    waitNanos = meter.scheduleDelayed(now, delayNanos, sendNanos);
    meter.admittedCount.increment();
    meter.delayedTotalCount.increment();
    return ShapingDecision.delay(
        waitNanos, new BandwidthTicket(meter, ticker, settings.alpha(), now, true));
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  /** Equations 3 to 9 for one request of {@code meter}'s group. */
  private long delayNanos(GroupMeter meter, double size) {
    if (!(size > 0)) {
      return 0; // nothing known about the size yet: let the first response teach us
    }
    int n = groups.size();
    Farm f = farm;
    double[] averages = new double[n];
    double[] allocations = new double[n];
    boolean[] active = new boolean[n];
    double utilized = 0;
    int ownIndex = -1;
    for (int j = 0; j < n; j++) {
      ClientGroup g = groups.get(j);
      allocations[j] = g.allocatedBytesPerSecond();
      GroupMeter m =
          g == meter.group()
              ? meter
              : meters.policy().getIfPresentQuietly(g.name()); // a read must not renew expiry
      if (g == meter.group()) {
        ownIndex = j;
      }
      double local = m == null ? 0 : m.averageBytesPerSecond();
      averages[j] = farmAverage(local, f, j);
      active[j] = (m != null && m.isActive()) || f.active[j];
      utilized += averages[j];
    }
    double unheard = unheardNodes(f);
    if (unheard > 1) {
      // Before the first exchange with the others, B is the farm's but only this node's
      // measurements are known: take them for 1/n of the farm's, as an even balancer makes
      // them, and pace to this node's 1/n part (below), rather than promise each group the
      // whole farm's d_i from every node until the first exchange.
      utilized = 0;
      for (int j = 0; j < n; j++) {
        averages[j] *= unheard;
        utilized += averages[j];
      }
    }
    double own = ownIndex < 0 ? meter.averageBytesPerSecond() : averages[ownIndex];
    boolean unsatisfaction = AvailableBandwidth.unsatisfaction(averages, allocations, active);
    double available =
        AvailableBandwidth.available(
            unsatisfaction,
            own,
            meter.group().allocatedBytesPerSecond(),
            utilized,
            settings.totalBytesPerSecond());
    if (f.nodes > 0 && ownIndex >= 0 && settings.measure() == Measure.THROUGHPUT) {
      double part = parts[ownIndex];
      available *= Double.isNaN(part) ? localPart(f, ownIndex) : part;
    } else if (unheard > 1) {
      available /= unheard;
    }
    return AvailableBandwidth.delayNanos(available, maxMeasuredBytesPerSecond, size);
  }

  /**
   * The cluster's expected member count while this node has never heard another and measures
   * {@code throughput} (the measure that sums over nodes), else 1. A node that heard the others
   * and lost them decides alone, as the waiting room does ({@link
   * org.overloadcontrol.cluster.CapacityShare}).
   */
  private double unheardNodes(Farm f) {
    return f.nodes == 0 && !heardOthers && settings.measure() == Measure.THROUGHPUT
        ? expectedNodes
        : 1;
  }

  @Override
  public void expectNodes(int expectedNodes) {
    this.expectedNodes = Math.max(1, expectedNodes);
  }

  /** b̂_j of the farm: summed over nodes, or for per-request bandwidth their weighted mean. */
  private double farmAverage(double local, Farm f, int j) {
    if (f.nodes == 0) {
      return local;
    }
    if (settings.measure() == Measure.THROUGHPUT) {
      return local + f.rates[j];
    }
    double here = localArrivals[j];
    double all = here + f.arrivals[j];
    return all > 0 ? (local * here + f.rates[j]) / all : local;
  }

  /**
   * This node's part of group j's arrivals in the farm (equal parts before any arrived), never
   * below a tenth of an equal part, so a node the balancer has just started sending the group
   * to is not held at zero until its average catches up (WebQ's reserve, §III-B).
   */
  private double localPart(Farm f, int j) {
    double here = localArrivals[j];
    double all = here + f.arrivals[j];
    double equal = 1.0 / (f.nodes + 1);
    return all > 0 ? Math.max(here / all, 0.1 * equal) : equal;
  }

  @Override
  public synchronized void report(NodeReport.Builder report, long nowSecond) {
    double[] arrivals = localArrivals.clone();
    for (int j = 0; j < groups.size(); j++) {
      ClientGroup g = groups.get(j);
      GroupMeter m = meters.policy().getIfPresentQuietly(g.name());
      long total = m == null ? reportedArrivals[j] : m.admittedCount.sum() + m.refusedCount.sum();
      long recent = Math.max(0, total - reportedArrivals[j]);
      reportedArrivals[j] = total;
      arrivals[j] = ARRIVALS_ALPHA * recent + (1 - ARRIVALS_ALPHA) * arrivals[j];
      if (m != null) {
        report.group(
            g.name(),
            new NodeReport.Group(
                m.averageBytesPerSecond(), arrivals[j], m.isActive() || recent > 0, parts[j]));
      }
    }
    localArrivals = arrivals;
  }

  @Override
  public void apply(ClusterView view, long nowSecond) {
    int n = groups.size();
    double[] rates = new double[n];
    double[] arrivals = new double[n];
    boolean[] active = new boolean[n];
    List<NodeReport> fresh = view.fresh(nowSecond);
    for (NodeReport r : fresh) {
      for (int j = 0; j < n; j++) {
        NodeReport.Group g = r.groups().get(groups.get(j).name());
        if (g != null) {
          rates[j] +=
              settings.measure() == Measure.THROUGHPUT
                  ? g.bytesPerSecond()
                  : g.bytesPerSecond() * g.arrivals();
          arrivals[j] += g.arrivals();
          active[j] |= g.active();
        }
      }
    }
    Farm f = new Farm(rates, arrivals, active, fresh.size());
    farm = f;
    if (f.nodes > 0) {
      heardOthers = true;
      parts = parts(f, fresh);
    }
  }

  /**
   * Each group's part on this node: its part of the group's arrivals ({@link #localPart}), but
   * risen only into the room the other nodes' reported parts leave. Each node compares its own
   * arrivals, averaged up to now, with the others' as of their last exchange; even with the
   * exchange in steps ({@link org.overloadcontrol.internal.cluster.ClusterExchange}) those are a step
   * older, so while a returning group's arrivals grow every node sees its own as the larger and
   * the parts would add up to more than 1 (the farm's d_i paced over again). A part falls at
   * once and rises at the next exchange after the others have reported theirs fallen, as the
   * virtual queue's capacity shares do ({@link org.overloadcontrol.cluster.CapacityShare}).
   * Never below the reserve of {@link #localPart}.
   */
  private synchronized double[] parts(Farm f, List<NodeReport> fresh) {
    double[] held = parts;
    double[] next = new double[groups.size()];
    double reserve = 0.1 / (f.nodes + 1);
    for (int j = 0; j < next.length; j++) {
      double othersHold = 0;
      for (NodeReport r : fresh) {
        NodeReport.Group g = r.groups().get(groups.get(j).name());
        if (g != null && !Double.isNaN(g.part())) {
          othersHold += g.part();
        }
      }
      double target = localPart(f, j);
      double mine = Double.isNaN(held[j]) ? Math.min(target, 1.0 / (f.nodes + 1)) : held[j];
      next[j] = Math.max(reserve, Math.min(target, Math.max(1 - othersHold, mine)));
    }
    return next;
  }

  /**
   * The Bandwidth Manager's periodic round (§V.B): decay idle groups, clear the active flags,
   * raise Â to the measured total when it exceeds it, and drop expired groups' state.
   */
  public synchronized void managerRound() {
    long now = ticker.read();
    long elapsedNanos =
        lastRoundNanos == Long.MIN_VALUE ? settings.managerPeriodNanos() : now - lastRoundNanos;
    lastRoundNanos = now;
    double utilized = 0;
    for (ClientGroup g : groups) {
      GroupMeter m = meters.policy().getIfPresentQuietly(g.name());
      if (m != null) {
        m.managerRound(settings.alpha(), settings.idleAlpha(), elapsedNanos);
        utilized += m.averageBytesPerSecond();
      }
    }
    if (utilized > maxMeasuredBytesPerSecond) {
      maxMeasuredBytesPerSecond = utilized;
    }
    meters.cleanUp();
  }

  /** Â, the maximum measured total bandwidth, in bytes per second. */
  public double maxMeasuredBytesPerSecond() {
    return maxMeasuredBytesPerSecond;
  }

  /** How many groups have state in the cache now (for tests and metrics). */
  public long trackedGroupCount() {
    meters.cleanUp();
    return meters.estimatedSize();
  }

  /** Every configured group's state, in configuration order; idle-expired groups read as 0. */
  public List<GroupSnapshot> snapshot() {
    List<GroupSnapshot> out = new ArrayList<>(groups.size());
    for (ClientGroup g : groups) {
      GroupMeter m = meters.policy().getIfPresentQuietly(g.name());
      out.add(
          m == null
              ? new GroupSnapshot(g.name(), g.allocatedBytesPerSecond(), 0, false, 0, 0, 0)
              : new GroupSnapshot(
                  g.name(),
                  g.allocatedBytesPerSecond(),
                  m.averageBytesPerSecond(),
                  m.isActive(),
                  m.delayedCount(),
                  m.admittedCount.sum(),
                  m.refusedCount.sum()));
    }
    return out;
  }
}
