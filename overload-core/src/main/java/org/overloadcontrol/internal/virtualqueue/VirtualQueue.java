package org.overloadcontrol.internal.virtualqueue;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.cluster.CapacityShare;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.internal.capacity.CapacitySource;
import org.overloadcontrol.internal.cluster.ClusterPart;

/**
 * WebQ's virtual queue (Suresh et al.) for one node, without any container type: TokenGen and
 * TokenCheck in one object, in front of the paths a configuration protects.
 *
 * <p>{@link #decide} takes one arriving request. With a token it is TokenCheck (§II-C): a valid
 * token whose slot has come passes, any other token is refused with its reason. Without one it is
 * TokenGen (§III-A): the request reserves the earliest slot with room in the
 * {@link SlotSchedule}, weighted by its type's hardness; slot 0 passes at once, slot k answers
 * "wait k seconds" with a signed token, and no slot within the maximum wait refuses. Requests
 * that pass are reported to the {@link CapacitySource}, and {@link #complete} reports their
 * response times, which is all the passive capacity estimate (§IV) needs.
 *
 * <p>The schedule counts a token holder when its token is issued, not again when it comes back.
 * Capacity comes from the source at each decision, so a new estimate (or the end of training)
 * takes effect on the next arrival, with the capacity-change rules of §III-A.
 *
 * <p>One replica of several (§III-B), as a {@link ClusterPart}: at every exchange it reports its
 * incoming load L_i (subunits of new arrivals in the last whole second), its promised work N_i
 * and, with an estimated
 * capacity, its own estimate; it takes back its share S_i ({@link CapacityShare}) and the
 * others' promises, which bound its slots by equations 2 and 3. With a configured capacity the
 * number is the whole cluster's; estimated, C is the sum of the members' estimates. Tokens are
 * claimed in the cluster's used-token set, so one admits once cluster-wide. Alone
 * ({@link ClusterCoordinator#STANDALONE}) none of this happens.
 */
public final class VirtualQueue implements ClusterPart {

  private final CapacitySource capacity;
  private final EpochClock clock;
  private final SlotSchedule schedule;
  private final TokenSigner signer;
  private final KeyRing keys;
  private final TokenChecker checker;
  private final LongAdder passCount = new LongAdder();
  private final LongAdder waitCount = new LongAdder();
  private final boolean estimated;
  private final CapacityShare share;

  /** This node's name in the cluster (null alone): its rank among the members sets its phase. */
  private final String node;

  /** C while in a cluster (NaN alone): configured, or the sum of the members' estimates. */
  private volatile double clusterCapacity = Double.NaN;

  /** A queue alone: see {@link #VirtualQueue(int, int, long, KeyRing, CapacitySource, EpochClock, ClusterCoordinator, boolean)}. */
  public VirtualQueue(
      int maxWaitSeconds,
      int graceSeconds,
      long replayCacheSize,
      KeyRing keys,
      CapacitySource capacity,
      EpochClock clock) {
    this(
        maxWaitSeconds,
        graceSeconds,
        replayCacheSize,
        keys,
        capacity,
        clock,
        ClusterCoordinator.STANDALONE,
        false);
  }

  /**
   * @param maxWaitSeconds the longest wait handed out
   * @param graceSeconds how long after its slot a token still admits
   * @param replayCacheSize how many used tokens are remembered
   * @param cluster the cluster this node is a replica of, or {@link ClusterCoordinator#STANDALONE}
   * @param estimated whether {@code capacity} is this node's own estimate (in a cluster C is then
   *     the members' sum) rather than the configured capacity of the whole cluster
   */
  public VirtualQueue(
      int maxWaitSeconds,
      int graceSeconds,
      long replayCacheSize,
      KeyRing keys,
      CapacitySource capacity,
      EpochClock clock,
      ClusterCoordinator cluster,
      boolean estimated) {
    this.capacity = Objects.requireNonNull(capacity, "capacity");
    this.clock = Objects.requireNonNull(clock, "clock");
    long now = clock.nanos();
    this.schedule =
        new SlotSchedule(maxWaitSeconds, capacity.capacity(now), clock.epochSecond(now));
    this.keys = keys;
    this.signer = new TokenSigner(keys);
    this.checker = new TokenChecker(signer, graceSeconds, replayCacheSize, clock, cluster);
    this.estimated = estimated;
    if (cluster == ClusterCoordinator.STANDALONE) {
      this.share = null;
      this.node = null;
    } else {
      this.node = cluster.node();
      this.share = new CapacityShare(ClusterView.STALE_SECONDS, cluster.expectedNodes());
      apply(ClusterView.EMPTY, clock.epochSecond(now)); // 1/n of C until the others are heard
    }
  }

  /** The keys this queue signs and checks tokens with; a reloaded queue keeps them. */
  KeyRing keys() {
    return keys;
  }

  /** A queue built from validated settings. */
  public static VirtualQueue of(
      VirtualQueueSettings settings, KeyRing keys, CapacitySource capacity, EpochClock clock) {
    return of(settings, keys, capacity, clock, ClusterCoordinator.STANDALONE);
  }

  /** A queue built from validated settings, one replica of {@code cluster}. */
  public static VirtualQueue of(
      VirtualQueueSettings settings,
      KeyRing keys,
      CapacitySource capacity,
      EpochClock clock,
      ClusterCoordinator cluster) {
    return new VirtualQueue(
        settings.maxWaitSeconds(),
        settings.graceSeconds(),
        settings.replayCacheSize(),
        keys,
        capacity,
        clock,
        cluster,
        settings.capacityAuto());
  }

  /**
   * Decides for one arriving request.
   *
   * @param clientAddress the client's address (behind trusted proxies, the forwarded one)
   * @param url the raw path and query without the token ({@link TokenUrls#bound})
   * @param token the token the request carries, or null
   * @param requestType the request's type, for its hardness
   * @param nowNanos the ticker reading at arrival
   */
  public VirtualQueueDecision decide(
      String clientAddress, String url, String token, String requestType, long nowNanos) {
    long nowSecond = clock.epochSecond(nowNanos);
    if (token != null) {
      TokenCheck check = checker.check(token, clientAddress, url, nowSecond);
      if (!check.admitted()) {
        return new VirtualQueueDecision.Reject(check.rejection(), check.retryAfterSeconds());
      }
      passed(requestType, nowNanos);
      return new VirtualQueueDecision.Pass(true);
    }
    Reservation r =
        schedule.reserve(nowSecond, capacity.hardness(requestType), capacityNow(nowNanos));
    if (!r.granted()) {
      checker.count(VirtualQueueRejection.QUEUE_FULL);
      return new VirtualQueueDecision.Reject(
          VirtualQueueRejection.QUEUE_FULL, schedule.maxWaitSeconds());
    }
    if (r.waitSeconds() == 0) {
      passed(requestType, nowNanos);
      return new VirtualQueueDecision.Pass(false);
    }
    waitCount.increment();
    QueueToken issued =
        signer.issue(
            clientAddress, url, nowSecond, r.waitSeconds(), ThreadLocalRandom.current().nextLong());
    return new VirtualQueueDecision.Wait(issued.encode(), r.waitSeconds(), r.position());
  }

  private double capacityNow(long nowNanos) {
    double c = clusterCapacity;
    return Double.isNaN(c) ? capacity.capacity(nowNanos) : c;
  }

  @Override
  public void report(NodeReport.Builder report, long nowSecond) {
    double[] load = schedule.arrivals(nowSecond);
    report.queue(
        load[0],
        load[1],
        estimated ? capacity.capacity(clock.nanos()) : Double.NaN,
        share == null ? Double.NaN : share.fraction(),
        nowSecond,
        schedule.promised(nowSecond));
  }

  @Override
  public void apply(ClusterView view, long nowSecond) {
    if (share == null) {
      return;
    }
    checker.reconcile(nowSecond);
    CapacityShare.Share s =
        share.compute(
            nowSecond,
            schedule.arrivals(nowSecond),
            capacity.capacity(clock.nanos()),
            estimated,
            view);
    clusterCapacity = s.clusterCapacity();
    schedule.capacity(nowSecond, s.clusterCapacity());
    schedule.share(
        nowSecond,
        s.share(),
        s.clusterCapacity(),
        nowSecond,
        CapacityShare.othersScheduled(view, nowSecond, schedule.maxWaitSeconds() + 1),
        phase(view));
  }

  /** This node's rank among the members (by name) over their number: its phase in a second. */
  private double phase(ClusterView view) {
    List<NodeReport> members = view.members();
    int rank = 0;
    for (NodeReport r : members) {
      if (r.node().compareTo(node) < 0) {
        rank++;
      }
    }
    return (double) rank / (members.size() + 1);
  }

  /** A request that passed completed after {@code responseNanos}. */
  public void complete(String requestType, long responseNanos, boolean success, long nowNanos) {
    capacity.completed(requestType, responseNanos, success, nowNanos);
  }

  private void passed(String requestType, long nowNanos) {
    passCount.increment();
    capacity.arrived(requestType, nowNanos);
  }

  /** Requests that went on to the server (with or without a token). */
  public long passCount() {
    return passCount.sum();
  }

  /** Requests that presented a valid token. */
  public long tokenAdmittedCount() {
    return checker.admittedCount();
  }

  /** Token checks the cluster did not answer within its bound (decided from local state). */
  public long unansweredClaims() {
    return checker.unansweredClaims();
  }

  /** This node's share S_i of the cluster capacity now (the capacity itself when alone). */
  public double share() {
    return schedule.share();
  }

  /** Requests told to wait. */
  public long waitCount() {
    return waitCount.sum();
  }

  /** Requests refused for {@code reason}. */
  public long refusalCount(VirtualQueueRejection reason) {
    return checker.refusalCount(reason);
  }

  /** The wait a new arrival would get now, or -1 when the queue is full. */
  public int currentWaitSeconds() {
    long now = clock.nanos();
    schedule.capacity(clock.epochSecond(now), capacity.capacity(now));
    return schedule.currentWaitSeconds(clock.epochSecond(now));
  }

  /** The capacity in force, subunits per second ({@code +∞} while training). */
  public double capacity() {
    return capacity.capacity(clock.nanos());
  }
}
