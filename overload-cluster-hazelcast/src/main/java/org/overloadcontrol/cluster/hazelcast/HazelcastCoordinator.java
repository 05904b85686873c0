package org.overloadcontrol.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.cluster.CapacityShare;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.cluster.TokenClaim;

/**
 * The {@link ClusterCoordinator} on an embedded Hazelcast member (WebQ's replica exchange,
 * Suresh et al., §III-B). Two partitioned maps:
 *
 * <ul>
 *   <li>{@code overload-control.reports}: each node's latest {@link NodeReport}, written with a
 *       time to live of {@code cluster.forgetAfter}, so a node that stops reporting is forgotten
 *       by itself; a node leaving cleanly writes its last report, marked leaving, whose life
 *       covers the slots it promised.
 *   <li>{@code overload-control.used-tokens}: one entry per used token, set by an entry
 *       processor ({@link ClaimOnce}) on the key's owner, so a token is claimed once
 *       cluster-wide, with a time to live just past the token's grace window.
 * </ul>
 *
 * <p>Threads: {@link #publish} hands the report to one background thread, which writes it and
 * reads the others' back into the view; a slow or lost cluster makes that thread late, never a
 * request, and the view it leaves behind ages, which {@link CapacityShare} reads as "not
 * whole". {@link #claim} has the entry processor sent by one of
 * two claim threads and waits for the answer at most {@code cluster.callTimeout}, then answers
 * {@link TokenClaim#UNKNOWN}; a claim the caller does not keep is removed when its answer
 * arrives, if it was the first.
 */
final class HazelcastCoordinator implements ClusterCoordinator {

  private static final OverloadLog LOG = OverloadLog.get(HazelcastCoordinator.class);
  static final String REPORTS = "overload-control.reports";
  static final String USED_TOKENS = "overload-control.used-tokens";

  private final HazelcastInstance member;
  private final String node;
  private final IMap<String, NodeReport> reports;
  private final IMap<String, Boolean> usedTokens;
  private final long callTimeoutNanos;
  private final long forgetAfterSeconds;
  private final int expectedNodes;
  private final ExecutorService shipper;
  private final ThreadPoolExecutor claimSenders;
  private final AtomicReference<NodeReport> pending = new AtomicReference<>();
  private final LongAdder lateClaimsTakenBack = new LongAdder();
  private final AtomicBoolean shipping = new AtomicBoolean();
  private volatile ClusterView view = ClusterView.EMPTY;

  /** The second of the last report written; the shipping thread's only. */
  private long publishedSecond = Long.MIN_VALUE;

  /** Members whose report could not be read, said once each; the shipping thread's only. */
  private final Set<String> unreadable = new HashSet<>();

  HazelcastCoordinator(
      HazelcastInstance member, Duration callTimeout, Duration forgetAfter, int expectedNodes) {
    this.member = Objects.requireNonNull(member, "member");
    this.node = member.getCluster().getLocalMember().getUuid().toString();
    this.reports = member.getMap(REPORTS);
    this.usedTokens = member.getMap(USED_TOKENS);
    this.callTimeoutNanos = callTimeout.toNanos();
    this.forgetAfterSeconds = forgetAfter.toSeconds();
    this.expectedNodes = expectedNodes;
    this.shipper = Executors.newSingleThreadExecutor(r -> daemon(r, "overload-control-cluster"));
    // Two threads for two cores; a queue so deep that only a stuck cluster fills it, and then
    // a claim is refused at once (UNKNOWN) rather than queued behind the stuck ones.
    this.claimSenders =
        new ThreadPoolExecutor(
            2,
            2,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1024),
            r -> daemon(r, "overload-control-claims"));
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public void publish(NodeReport report) {
    pending.set(report);
    // One write in flight at most: a cluster slower than a second skips reports, never queues.
    if (shipping.compareAndSet(false, true)) {
      try {
        shipper.execute(this::ship);
      } catch (RejectedExecutionException closed) {
        shipping.set(false); // a last timer tick racing close(): nothing left to tell
      }
    }
  }

  private void ship() {
    try {
      NodeReport report;
      while ((report = pending.getAndSet(null)) != null) {
        long ttl =
            report.leaving()
                ? Math.max(forgetAfterSeconds, report.scheduled().length + 1L)
                : forgetAfterSeconds;
        reports.set(node, report, ttl, TimeUnit.SECONDS);
        publishedSecond = report.second();
        view = new ClusterView(others(), report.second());
      }
    } catch (RuntimeException e) {
      failed(e);
    } finally {
      shipping.set(false);
      if (pending.get() != null && shipping.compareAndSet(false, true)) {
        shipper.execute(this::ship);
      }
    }
  }

  /** The other members' reports as the cluster holds them now. */
  private List<NodeReport> others() {
    List<NodeReport> others = new ArrayList<>();
    for (String key : reports.keySet()) {
      NodeReport r = key.equals(node) ? null : readable(key);
      if (r != null) {
        others.add(r);
      }
    }
    return others;
  }

  private static void failed(RuntimeException e) {
    // The view keeps its age: the shares fall back until the cluster answers again.
    LOG.debug("cluster exchange failed: {}", e.toString());
  }

  /**
   * Reads the others' reports on the shipping thread, after any write in flight: the read that
   * follows this node's write at {@link #publish} can miss the report another node writes at
   * the same moment, and the exchange fetches again once those have landed.
   */
  @Override
  public void fetch() {
    try {
      shipper.execute(this::read);
    } catch (RejectedExecutionException closed) {
      // a last timer tick racing close(): nothing left to read
    }
  }

  private void read() {
    long second = publishedSecond;
    if (second == Long.MIN_VALUE) {
      return; // nothing published yet: the view is of a node that has not joined the exchange
    }
    try {
      view = new ClusterView(others(), second);
    } catch (RuntimeException e) {
      failed(e);
    }
  }

  /**
   * The report of member {@code key}, or null when it cannot be read: a member of another
   * version of this library writes a {@link NodeReport} of another shape (its serialVersionUID
   * differs). Such a report is left out, and said once at error level, rather than read with
   * missing fields as 0, or failing the read of every other report with it: this node then
   * counts without that member, as if it had not reported (it keeps the part of C it last held
   * in a whole cluster, {@link CapacityShare}), until all members run one version.
   */
  private NodeReport readable(String key) {
    try {
      return reports.get(key);
    } catch (HazelcastSerializationException | ClassCastException e) {
      if (unreadable.add(key)) {
        LOG.error(
            "cannot read the cluster report of member {}: it runs another version of"
                + " overload-control ({}); run one version on all members (until then this node"
                + " counts without that member)",
            key,
            e.getCause() == null ? e.toString() : e.getCause().toString());
      }
      return null;
    }
  }

  @Override
  public ClusterView view() {
    return view;
  }

  @Override
  public TokenClaim claim(String tokenKey, Duration keepFor, boolean keepIfLate) {
    CompletableFuture<Boolean> answer;
    try {
      // Sending happens on the claim threads: while members come and go, Hazelcast can hold
      // the caller of submitToKey itself (the partition's owner is being decided), not only
      // its future. The request waits for the answer, never for the sending.
      answer =
          CompletableFuture.supplyAsync(
                  () -> usedTokens.submitToKey(tokenKey, new ClaimOnce(keepFor.toMillis())),
                  claimSenders)
              .thenCompose(a -> a);
    } catch (RejectedExecutionException e) {
      unanswered(e);
      return TokenClaim.UNKNOWN; // never sent: nothing can land late
    }
    try {
      Boolean first = answer.get(callTimeoutNanos, TimeUnit.NANOSECONDS);
      return Boolean.TRUE.equals(first) ? TokenClaim.FIRST : TokenClaim.REPLAYED;
    } catch (TimeoutException | ExecutionException e) {
      unanswered(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!keepIfLate) {
      answer.thenAccept(first -> takeBackIfFirst(tokenKey, first));
    }
    return TokenClaim.UNKNOWN;
  }

  /**
   * Removes the mark a late claim set, so the client told to retry is not refused as a replay.
   * Only a first claim set the mark; until it is removed, every other claim of the token found
   * it and was refused, so the mark removed is this claim's own.
   */
  private void takeBackIfFirst(String tokenKey, Boolean first) {
    if (!Boolean.TRUE.equals(first)) {
      return;
    }
    try {
      usedTokens
          .removeAsync(tokenKey)
          .whenComplete(
              (removed, e) -> {
                if (e == null) {
                  lateClaimsTakenBack.increment();
                } else if (LOG.isDebugEnabled()) {
                  LOG.debug("a late token claim could not be taken back: {}", e.toString());
                }
              });
    } catch (RuntimeException closed) {
      // The member is shutting down: its marks go with the token's grace window anyway.
      unanswered(closed);
    }
  }

  /** Claims that landed after their bound on a node that had refused the use, then removed. */
  long lateClaimsTakenBack() {
    return lateClaimsTakenBack.sum();
  }

  private static void unanswered(Exception e) {
    if (LOG.isDebugEnabled()) {
      LOG.debug("token claim unanswered: {}", e.toString());
    }
  }

  @Override
  public int expectedNodes() {
    return expectedNodes;
  }

  /** The Hazelcast member, for tests and for operators who want to look inside. */
  HazelcastInstance member() {
    return member;
  }

  @Override
  public void close() {
    claimSenders.shutdownNow();
    shipper.shutdown();
    try {
      // The last report (marked leaving) is still being written: let it land, within reason.
      shipper.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    member.shutdown();
  }
}
