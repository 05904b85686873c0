package org.overloadcontrol.internal.virtualqueue;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.TokenClaim;

/**
 * TokenCheck (WebQ §II-C): admits a request whose token is genuine, was issued for this URL and
 * this client address, and whose slot has come and not long passed; refuses every other token
 * with a distinct {@link VirtualQueueRejection}, counted.
 *
 * <p>Checks, in order: decodes and names a key we hold (else {@code FORGED}); seal over its
 * time, wait and nonce (else {@code ALTERED}); URL tag ({@code WRONG_URL}); address tag
 * ({@code FOREIGN_ADDRESS}); {@code now >= slot} ({@code EARLY}); {@code now <= slot + grace}
 * ({@code EXPIRED}); first use ({@code REPLAYED}). Times are whole Unix seconds; a client that
 * honestly waits {@code w} seconds after check-in arrives in second {@code >= TS + w}.
 *
 * <p>Replay: the paper accepts any number of uses of one token within its window, as the price
 * of keeping no per-user state. We keep a bounded Caffeine set of the tokens admitted in the
 * last {@code grace + 2} seconds (a token cannot be valid longer than its grace window), so a
 * token admits once. Memory is bounded by {@code replayCacheSize}; should the set be full,
 * Caffeine evicts the entries least likely to be seen again, so an evicted token could be
 * replayed within its window: size it above capacity × grace. In a cluster a token this node
 * has not seen is then claimed in the {@link ClusterCoordinator}'s shared set, so it admits once
 * cluster-wide. When the cluster does not answer within its bound the miss is counted, and
 * while this node hears other members no node admits the token: it answers "retry in a second"
 * ({@link #decidesAlone}), and its claim, should it land after the bound, is taken back by the
 * coordinator, so the client's retry is not refused as a replay. Only a node that hears no
 * other member admits such a token from its own set; that use is kept, and the exchange claims
 * it again in the cluster off the request path ({@link #reconcile}).
 *
 * <p>What that guarantees: while the members hear each other, a token admits once
 * cluster-wide, and a slow cluster delays its use rather than admitting it twice. A node cut
 * off from the others (its view older than {@link ClusterView#STALE_SECONDS}, or no other
 * member's report that recent) decides alone, once per node, until it hears the cluster again.
 */
final class TokenChecker {

  private final TokenSigner signer;
  private final long graceSeconds;
  private final Cache<String, Boolean> used;
  private final Map<VirtualQueueRejection, LongAdder> refusals =
      new EnumMap<>(VirtualQueueRejection.class);
  private final LongAdder admittedCount = new LongAdder();
  private final LongAdder unansweredClaims = new LongAdder();
  private final ClusterCoordinator cluster;
  private final Duration keepFor;

  /** Uses admitted while the cluster did not answer, to be claimed again; at most MAX_UNSETTLED. */
  private final ConcurrentLinkedQueue<Unsettled> unsettled = new ConcurrentLinkedQueue<>();

  private final AtomicInteger unsettledCount = new AtomicInteger();

  /** Beyond this many unsettled uses the oldest are given up (the cluster has been away long). */
  static final int MAX_UNSETTLED = 10_000;

  private record Unsettled(String key, long usedSecond) {}

  TokenChecker(
      TokenSigner signer,
      long graceSeconds,
      long replayCacheSize,
      EpochClock clock,
      ClusterCoordinator cluster) {
    this.signer = Objects.requireNonNull(signer, "signer");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.keepFor = Duration.ofSeconds(graceSeconds + 2);
    this.graceSeconds = graceSeconds;
    this.used =
        Caffeine.newBuilder()
            .ticker(clock.ticker()::read)
            .expireAfterWrite(keepFor)
            .maximumSize(replayCacheSize)
            .executor(Runnable::run)
            .build();
    for (VirtualQueueRejection r : VirtualQueueRejection.values()) {
      refusals.put(r, new LongAdder());
    }
  }

  TokenCheck check(String text, String clientAddress, String url, long nowSecond) {
    TokenCheck result = evaluate(text, clientAddress, url, nowSecond);
    if (result.admitted()) {
      admittedCount.increment();
    } else {
      count(result.rejection());
    }
    return result;
  }

  private TokenCheck evaluate(String text, String clientAddress, String url, long nowSecond) {
    QueueToken token = QueueToken.decode(text);
    if (token == null || !signer.knowsKey(token)) {
      return TokenCheck.rejected(VirtualQueueRejection.FORGED);
    }
    if (!signer.sealValid(token)) {
      return TokenCheck.rejected(VirtualQueueRejection.ALTERED);
    }
    if (!signer.urlValid(token, url)) {
      return TokenCheck.rejected(VirtualQueueRejection.WRONG_URL);
    }
    if (!signer.addressValid(token, clientAddress)) {
      return TokenCheck.rejected(VirtualQueueRejection.FOREIGN_ADDRESS);
    }
    long slot = token.slotSecond();
    if (nowSecond < slot) {
      return new TokenCheck(VirtualQueueRejection.EARLY, slot - nowSecond);
    }
    if (nowSecond > slot + graceSeconds) {
      return TokenCheck.rejected(VirtualQueueRejection.EXPIRED);
    }
    // putIfAbsent is atomic: of two requests racing with one token, exactly one is admitted.
    if (used.asMap().putIfAbsent(token.replayKey(), Boolean.TRUE) != null) {
      return TokenCheck.rejected(VirtualQueueRejection.REPLAYED);
    }
    // Decided before claiming: a claim that goes unanswered may land later, and whether its
    // mark should then stand depends on whether this node admits the use without an answer.
    boolean alone = decidesAlone(nowSecond);
    TokenClaim claim = cluster.claim(token.replayKey(), keepFor, alone);
    if (claim == TokenClaim.REPLAYED) {
      return TokenCheck.rejected(VirtualQueueRejection.REPLAYED);
    }
    if (claim == TokenClaim.UNKNOWN) {
      unansweredClaims.increment();
      if (!alone) {
        // Nobody admits it without the cluster's word; a retry passes once the cluster answers.
        used.asMap().remove(token.replayKey());
        return new TokenCheck(VirtualQueueRejection.EARLY, 1);
      }
      unsettled.add(new Unsettled(token.replayKey(), nowSecond));
      if (unsettledCount.incrementAndGet() > MAX_UNSETTLED && unsettled.poll() != null) {
        unsettledCount.decrementAndGet();
      }
    }
    return TokenCheck.ADMITTED;
  }

  /**
   * Whether this node may admit, on its own set's word, a token whose claim the cluster did not
   * answer within its bound: only when it is cut off, its view stale or no other member heard
   * within {@link ClusterView#STALE_SECONDS}, since it then cannot ask anyone and refusing would
   * lock every waiting client out until the cluster heals; across a split a token admits at most
   * once per side. While other members are heard no node decides alone, not even one chosen per
   * token (a rendezvous owner): a node's set holds only the uses it admitted itself, so a replay
   * reaching that node after a use elsewhere that the cluster did answer would find nothing
   * there and be admitted a second time. Such a node answers as for an early token, retry in a second, and
   * the retry passes once the cluster answers again.
   */
  private boolean decidesAlone(long nowSecond) {
    ClusterView view = cluster.view();
    return view.receivedSecond() < nowSecond - ClusterView.STALE_SECONDS
        || view.fresh(nowSecond).isEmpty();
  }

  /**
   * Claims again, in the order they happened, the uses the cluster did not answer for: called
   * by the exchange, never on a request's thread. Stops at the first claim that goes
   * unanswered again (each costs the call bound, and the next exchange tries again); a use whose
   * token has expired meanwhile needs no claim.
   */
  void reconcile(long nowSecond) {
    for (Unsettled u; (u = unsettled.peek()) != null; ) {
      long left = keepFor.toSeconds() - (nowSecond - u.usedSecond());
      if (left > 0
          && cluster.claim(u.key(), Duration.ofSeconds(left), true) == TokenClaim.UNKNOWN) {
        return;
      }
      if (unsettled.remove(u)) {
        unsettledCount.decrementAndGet();
      }
    }
  }

  /** Uses admitted while the cluster did not answer and not yet claimed again. */
  int unsettledCount() {
    return unsettledCount.get();
  }

  void count(VirtualQueueRejection reason) {
    refusals.get(reason).increment();
  }

  long refusalCount(VirtualQueueRejection reason) {
    return refusals.get(reason).sum();
  }

  long unansweredClaims() {
    return unansweredClaims.sum();
  }

  long admittedCount() {
    return admittedCount.sum();
  }
}
