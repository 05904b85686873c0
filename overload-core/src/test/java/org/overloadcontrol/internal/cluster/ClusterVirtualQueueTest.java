package org.overloadcontrol.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.internal.capacity.FixedCapacity;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.virtualqueue.EpochClock;
import org.overloadcontrol.internal.virtualqueue.KeyRing;
import org.overloadcontrol.internal.virtualqueue.VirtualQueue;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueDecision;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;

/**
 * WebQ's distributed TokenGen (Suresh et al., §III-B) with two replicas on one fake clock
 * sharing an {@link InMemoryCluster}: one waiting room, not two.
 */
class ClusterVirtualQueueTest {

  private static final long EPOCH = 1_767_225_600L;
  private static final double CAPACITY = 20;
  private static final String URL = "/checkout";

  private final FakeTicker ticker = new FakeTicker(0);
  private final EpochClock clock = EpochClock.fixed(ticker, 0, EPOCH);
  private InMemoryCluster cluster = new InMemoryCluster(() -> clock.epochSecond(ticker.read()), 2);
  private final String keys = KeyRing.newEntry("k1", new SecureRandom());

  private final class Node {
    final ClusterCoordinator coordinator;
    final VirtualQueue queue;
    final ClusterExchange exchange;

    Node(String id) {
      coordinator = cluster.node(id);
      queue =
          new VirtualQueue(
              60,
              5,
              10_000,
              KeyRing.parse(keys),
              new FixedCapacity(CAPACITY, Map.of()),
              clock,
              coordinator,
              false);
      exchange =
          new ClusterExchange(coordinator, () -> clock.epochSecond(ticker.read()), List.of(queue));
    }

    VirtualQueueDecision arrive(String client, String token) {
      return queue.decide(client, URL, token, "default", ticker.read());
    }
  }

  /**
   * The next second, and two rounds of the nodes' exchanges in it (the runtime runs four): a
   * node whose part rose takes it once the others have reported theirs fallen.
   */
  private void nextSecond(Node... nodes) {
    ticker.advanceNanos(1_000_000_000L);
    for (int round = 0; round < 2; round++) {
      for (Node n : nodes) {
        n.exchange.run();
      }
    }
  }

  @Test
  void aTokenIssuedOnOneNodeAdmitsOnAnotherExactlyOnce() {
    Node a = new Node("a");
    Node b = new Node("b");
    List<VirtualQueueDecision.Wait> waits = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      if (a.arrive("192.0.2." + i, null) instanceof VirtualQueueDecision.Wait w) {
        waits.add(w);
      }
    }
    VirtualQueueDecision.Wait first = waits.get(0);
    assertThat(first.waitSeconds()).isEqualTo(1);
    nextSecond(a, b);
    String client = "192.0.2." + (30 - waits.size());
    assertThat(b.arrive(client, first.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(b.arrive(client, first.token()))
        .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
    assertThat(a.arrive(client, first.token()))
        .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
    assertThat(
            a.queue.refusalCount(VirtualQueueRejection.REPLAYED)
                + b.queue.refusalCount(VirtualQueueRejection.REPLAYED))
        .isEqualTo(2);
  }

  @Test
  void aNodeCutOffDecidesAloneAndItsUseIsClaimedAgainOnceTheClusterAnswers() {
    Node a = new Node("a");
    Node b = new Node("b");
    VirtualQueueDecision.Wait wait = null;
    String client = null;
    for (int i = 0; wait == null; i++) {
      client = "192.0.2." + i;
      if (a.arrive(client, null) instanceof VirtualQueueDecision.Wait w) {
        wait = w;
      }
    }
    nextSecond(a, b);
    cluster.cutOff("b");
    for (int s = 0; s <= ClusterView.STALE_SECONDS; s++) {
      nextSecond(a, b);
    }
    // b has heard nobody for longer than STALE_SECONDS: it decides from its own set and admits.
    assertThat(b.arrive(client, wait.token())).isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(b.queue.unansweredClaims()).isEqualTo(1);
    cluster.reconnect("b");
    b.exchange.run(); // the next exchange claims the use again, off the request path
    assertThat(a.arrive(client, wait.token()))
        .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
  }

  @Test
  void theNodeLeftByAMemberThatWasCutOffDecidesAloneToo() {
    Node a = new Node("a");
    Node b = new Node("b");
    Map<String, String> tokens = tenTokensForTheNextSecond(a);
    nextSecond(a, b);
    cluster.cutOff("b");
    for (int s = 0; s <= ClusterView.STALE_SECONDS; s++) {
      nextSecond(a, b);
    }
    Map.Entry<String, String> t = tokens.entrySet().iterator().next();
    // a still reads the cluster, but b's report has gone stale: a hears no other member.
    cluster.claimsUnanswered(true);
    assertThat(a.arrive(t.getKey(), t.getValue())).isEqualTo(new VirtualQueueDecision.Pass(true));
    cluster.claimsUnanswered(false);
    assertThat(a.queue.unansweredClaims()).isEqualTo(1);
  }

  @Test
  void aTokenWhoseClaimsTimeOutAdmitsNobodyWhileTheNodesHearEachOtherThenOnceClusterWide() {
    Node a = new Node("a");
    Node b = new Node("b");
    Map<String, String> tokens = tenTokensForTheNextSecond(a);
    nextSecond(a, b);
    cluster.claimsUnanswered(true); // the reports flow, every claim times out
    for (Map.Entry<String, String> t : tokens.entrySet()) {
      for (Node n : List.of(a, b)) {
        // Not the token's fault: the client is told to retry in a second, on either node.
        assertThat(n.arrive(t.getKey(), t.getValue()))
            .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.EARLY, 1));
      }
    }
    assertThat(a.queue.unansweredClaims()).isEqualTo(10);
    assertThat(b.queue.unansweredClaims()).isEqualTo(10);
    cluster.claimsUnanswered(false);
    alternating(
        tokens,
        a,
        b,
        (t, first, second) -> {
          assertThat(first.arrive(t.getKey(), t.getValue()))
              .isEqualTo(new VirtualQueueDecision.Pass(true));
          for (Node n : List.of(second, first)) {
            assertThat(n.arrive(t.getKey(), t.getValue()))
                .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
          }
        });
  }

  @Test
  void aClaimThatLandsLateIsTakenBackSoTheClientsRetryPasses() {
    Node a = new Node("a");
    Node b = new Node("b");
    Map<String, String> tokens = tenTokensForTheNextSecond(a);
    nextSecond(a, b);
    alternating(
        tokens,
        a,
        b,
        (t, first, second) -> {
          cluster.claimsLate(true); // every claim lands, but after the caller stopped waiting
          VirtualQueueDecision one = first.arrive(t.getKey(), t.getValue());
          cluster.claimsLate(false);
          // Refused with "retry in a second": the retry must pass once, not meet its own mark.
          assertThat(one)
              .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.EARLY, 1));
          assertThat(first.arrive(t.getKey(), t.getValue()))
              .isEqualTo(new VirtualQueueDecision.Pass(true));
          assertThat(second.arrive(t.getKey(), t.getValue()))
              .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
        });
  }

  @Test
  void aLateClaimOfANodeThatHearsNobodyStandsSoTheTokenIsSpent() {
    Node a = new Node("a");
    Map<String, String> tokens = tenTokensForTheNextSecond(a);
    nextSecond(a);
    Node c = new Node("c"); // has heard nobody yet: it decides alone
    for (Map.Entry<String, String> t : tokens.entrySet()) {
      cluster.claimsLate(true);
      VirtualQueueDecision one = c.arrive(t.getKey(), t.getValue());
      cluster.claimsLate(false);
      assertThat(one).isEqualTo(new VirtualQueueDecision.Pass(true));
      // c admitted the use: its late mark stands, the token is spent on the other node too.
      assertThat(a.arrive(t.getKey(), t.getValue()))
          .isEqualTo(new VirtualQueueDecision.Reject(VirtualQueueRejection.REPLAYED, 0));
    }
  }

  @Test
  void aReplayAtTheOwnerWhoseClaimTimesOutAfterAnAnsweredUseElsewhereIsNotAdmitted() {
    Node a = new Node("a");
    Node b = new Node("b");
    Map<String, String> tokens = tenTokensForTheNextSecond(a);
    nextSecond(a, b);
    List<String> admittedTwice = new java.util.ArrayList<>();
    alternating(
        tokens,
        a,
        b,
        (t, first, second) -> {
          // The use: its claim is answered, the token is marked used cluster-wide.
          assertThat(first.arrive(t.getKey(), t.getValue()))
              .isEqualTo(new VirtualQueueDecision.Pass(true));
          // The replay on the other node, whose claim alone goes unanswered within its bound.
          cluster.claimsUnanswered(true);
          VirtualQueueDecision replay = second.arrive(t.getKey(), t.getValue());
          cluster.claimsUnanswered(false);
          if (replay instanceof VirtualQueueDecision.Pass) {
            admittedTwice.add(t.getKey());
          }
        });
    assertThat(admittedTwice).as("tokens admitted twice").isEmpty();
  }

  /** What a test does with one token, shown first on one node and then on the other. */
  private interface TokenUse {
    void use(Map.Entry<String, String> token, Node first, Node second);
  }

  /** Each token in turn, shown first on {@code a} and on {@code b} alternately. */
  private static void alternating(Map<String, String> tokens, Node a, Node b, TokenUse use) {
    int k = 0;
    for (Map.Entry<String, String> t : tokens.entrySet()) {
      Node first = k++ % 2 == 0 ? a : b;
      use.use(t, first, first == a ? b : a);
    }
  }

  /** Ten clients told by {@code node} to come back in a second, and their tokens. */
  private static Map<String, String> tenTokensForTheNextSecond(Node node) {
    Map<String, String> tokens = new java.util.LinkedHashMap<>(); // client -> token
    for (int i = 0; i < 200 && tokens.size() < 10; i++) {
      String client = "192.0.2." + i;
      if (node.arrive(client, null) instanceof VirtualQueueDecision.Wait w
          && w.waitSeconds() == 1) {
        tokens.put(client, w.token());
      }
    }
    assertThat(tokens).hasSize(10);
    return tokens;
  }

  @Test
  void aloneAReplayOnAnotherNodeWouldPass() {
    // The defect the shared set fixes: two standalone nodes with one key admit a token twice.
    VirtualQueue a =
        new VirtualQueue(
            60, 5, 10_000, KeyRing.parse(keys), new FixedCapacity(CAPACITY, Map.of()), clock);
    VirtualQueue b =
        new VirtualQueue(
            60, 5, 10_000, KeyRing.parse(keys), new FixedCapacity(CAPACITY, Map.of()), clock);
    VirtualQueueDecision d = null;
    for (int i = 0; i < 21; i++) {
      d = a.decide("192.0.2.1", URL, null, "default", ticker.read());
    }
    String token = ((VirtualQueueDecision.Wait) d).token();
    ticker.advanceNanos(1_000_000_000L);
    assertThat(a.decide("192.0.2.1", URL, token, "default", ticker.read()))
        .isEqualTo(new VirtualQueueDecision.Pass(true));
    assertThat(b.decide("192.0.2.1", URL, token, "default", ticker.read()))
        .isEqualTo(new VirtualQueueDecision.Pass(true));
  }

  /** Per second, what the two nodes let in: newcomers at slot 0 plus tokens whose slot came. */
  private record Run(double[] letIn, double[] shareA, double[] shareB) {}

  /**
   * A flash crowd at 5× C split 3:1 between the nodes; a client told to wait comes back at its
   * slot to a node picked at random.
   */
  private Run flashCrowd(Node a, Node b, int seconds, int cutOffAt, int leaveAt) {
    Random random = new Random(7);
    double[] letIn = new double[seconds];
    double[] shareA = new double[seconds];
    double[] shareB = new double[seconds];
    List<List<String[]>> returning = new ArrayList<>();
    for (int s = 0; s < seconds + 61; s++) {
      returning.add(new ArrayList<>());
    }
    int client = 0;
    for (int s = 0; s < seconds; s++) {
      if (s == cutOffAt) {
        cluster.cutOff("b");
      }
      boolean bGone = s >= leaveAt;
      if (s == leaveAt) {
        b.exchange.leave();
        b.coordinator.close();
      }
      for (String[] back : returning.get(s)) {
        Node n = bGone || random.nextBoolean() ? a : b;
        if (n.arrive(back[0], back[1]) instanceof VirtualQueueDecision.Pass) {
          letIn[s]++;
        }
      }
      int offered = (int) (5 * CAPACITY);
      for (int i = 0; i < offered; i++) {
        Node n = bGone || i % 4 != 0 ? a : b;
        String address = "198.51." + (client / 250) + "." + (client % 250);
        client++;
        VirtualQueueDecision d = n.arrive(address, null);
        if (d instanceof VirtualQueueDecision.Pass) {
          letIn[s]++;
        } else if (d instanceof VirtualQueueDecision.Wait w) {
          returning.get(s + w.waitSeconds()).add(new String[] {address, w.token()});
        }
      }
      shareA[s] = a.queue.share();
      shareB[s] = b.queue.share();
      nextSecond(bGone ? new Node[] {a} : new Node[] {a, b});
    }
    return new Run(letIn, shareA, shareB);
  }

  @Test
  void twoNodesTogetherLetInTheClusterCapacityNotTwiceIt() {
    Node a = new Node("a");
    Node b = new Node("b");
    Run run = flashCrowd(a, b, 30, Integer.MAX_VALUE, Integer.MAX_VALUE);
    for (int s = 0; s < 30; s++) {
      assertThat(run.letIn()[s]).as("second %d", s).isBetween(0.9 * CAPACITY, CAPACITY);
    }
    // Equation 1: shares follow the 3:1 split of the incoming load.
    assertThat(run.shareA()[20]).isCloseTo(15, org.assertj.core.data.Offset.offset(0.5));
    assertThat(run.shareB()[20]).isCloseTo(5, org.assertj.core.data.Offset.offset(0.5));
  }

  @Test
  void aNodeCutOffKeepsItsOwnShareNeverTheWholeCapacity() {
    Node a = new Node("a");
    Node b = new Node("b");
    Run run = flashCrowd(a, b, 30, 10, Integer.MAX_VALUE);
    for (int s = 10; s < 30; s++) {
      assertThat(run.shareB()[s]).as("second %d", s).isLessThan(0.3 * CAPACITY);
      assertThat(run.shareA()[s] + run.shareB()[s]).isLessThanOrEqualTo(CAPACITY + 1e-9);
      assertThat(run.letIn()[s]).as("second %d", s).isLessThanOrEqualTo(CAPACITY * 1.1);
    }
    // Token checks b could not ask the cluster about were decided from its own set.
    assertThat(b.queue.unansweredClaims()).isPositive();
  }

  @Test
  void whenANodeLeavesTheOtherTakesTheWholeCapacity() {
    Node a = new Node("a");
    Node b = new Node("b");
    Run run = flashCrowd(a, b, 30, Integer.MAX_VALUE, 10);
    assertThat(run.shareA()[15]).isCloseTo(CAPACITY, org.assertj.core.data.Offset.offset(1e-9));
    for (int s = 12; s < 30; s++) {
      assertThat(run.letIn()[s]).as("second %d", s).isBetween(0.9 * CAPACITY, CAPACITY);
    }
  }

  /**
   * The crowd moves from one node to the other while the nodes' exchanges run a quarter of a
   * second apart, each every half second: after a second ends, the node that reports first sees
   * the new loads before the other has published them. Without care each node then takes a
   * share computed from a different second and the two together promise more than C (2 C
   * here at the switch). A node raises its share only into the room the others' reports leave,
   * so the shares never add up to more than C, and no second lets in more than C.
   */
  @Test
  void whenTheCrowdMovesTheSharesNeverAddUpToMoreThanTheCapacity() {
    Node a = new Node("a");
    Node b = new Node("b");
    long quarter = 250_000_000L;
    double worst = 0;
    double[] letIn = new double[16];
    int client = 0;
    for (int q = 0; q < 16 * 4; q++) {
      Node loaded = q < 8 * 4 ? a : b;
      for (int i = 0; i < 5 * CAPACITY / 4; i++) {
        String address = "198.51." + (client / 250) + "." + (client % 250);
        client++;
        if (loaded.arrive(address, null) instanceof VirtualQueueDecision.Pass) {
          letIn[q / 4]++;
        }
      }
      ticker.advanceNanos(quarter / 2);
      (q % 2 == 0 ? a : b).exchange.run();
      worst = Math.max(worst, a.queue.share() + b.queue.share());
      ticker.advanceNanos(quarter / 2);
      worst = Math.max(worst, a.queue.share() + b.queue.share());
    }
    assertThat(worst).as("the largest sum of the shares").isLessThanOrEqualTo(CAPACITY + 1e-9);
    for (int s = 0; s < 16; s++) {
      assertThat(letIn[s]).as("newcomers let in, second %d", s).isLessThanOrEqualTo(CAPACITY);
    }
  }

  /**
   * A split longer than {@code cluster.forgetAfter}: each side forgets the other's nodes and is
   * whole again on its own. Were each side to share all of C, the two would promise 2 C; a
   * forgotten member keeps the part it last held, so together they stay at C.
   */
  @Test
  void aSplitLongerThanForgetAfterNeverLetsTheSidesTogetherPromiseMoreThanC() {
    cluster = new InMemoryCluster(() -> clock.epochSecond(ticker.read()), 3);
    Node a = new Node("a");
    Node b = new Node("b");
    Node c = new Node("c");
    Node[] all = {a, b, c};
    int client = 0;
    double worst = 0;
    for (int s = 0; s < 20; s++) {
      if (s == 5) {
        cluster.split(java.util.Set.of("c"));
      }
      if (s == 10) { // forgetAfter has passed on both sides
        cluster.forget(0, "c");
        cluster.forget(1, "a");
        cluster.forget(1, "b");
      }
      for (Node n : all) {
        for (int i = 0; i < 2 * CAPACITY; i++) {
          n.arrive("198.51." + (client / 250) + "." + (client % 250), null);
          client++;
        }
      }
      nextSecond(all);
      double sum = a.queue.share() + b.queue.share() + c.queue.share();
      worst = Math.max(worst, sum);
    }
    assertThat(a.queue.share() + b.queue.share())
        .as("the side of two, on its own")
        .isCloseTo(2 * CAPACITY / 3, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(worst)
        .as("the largest sum of the three shares")
        .isLessThanOrEqualTo(CAPACITY + 1e-6);
  }

  @Test
  void inClusterModeAMissingKeyIsAnErrorNotAGeneratedKey() {
    org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings settings =
        org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings.from(
            org.overloadcontrol.internal.config.ConfigSection.of(
                "virtualQueue", Map.of("enabled", "true", "paths", URL)));
    assertThat(
            org.overloadcontrol.internal.virtualqueue.KeyRingLoader.load(
                settings, name -> null, path -> null, new SecureRandom(), false))
        .isNotNull();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                org.overloadcontrol.internal.virtualqueue.KeyRingLoader.load(
                    settings, name -> null, path -> null, new SecureRandom(), true))
        .isInstanceOf(org.overloadcontrol.config.OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.keyFile")
        .hasMessageContaining("cluster.enabled");
  }

  @Test
  void beforeHearingTheOthersANodeTakesOneNthOfTheCapacity() {
    Node a = new Node("a");
    assertThat(a.queue.share()).isEqualTo(CAPACITY / 2);
  }
}
