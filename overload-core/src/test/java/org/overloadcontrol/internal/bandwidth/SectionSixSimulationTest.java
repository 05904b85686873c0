package org.overloadcontrol.internal.bandwidth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.cluster.TokenClaim;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.cluster.ClusterExchange;
import org.overloadcontrol.internal.cluster.InMemoryCluster;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * Li &amp; Jamin §VI on a fake clock: four groups at 10/20/30/40 % of B = 100 KB/s, each asking
 * for 10 KB responses at 6 requests per second while active, following Table III's activity
 * schedule, against a simulated link that serves admitted bytes at B at most (processor
 * sharing among the responses in flight). Epochs are scaled from two minutes to twenty seconds.
 * Prints the bandwidth per group per epoch (the paper's Figure 2 as a table) and the allocation
 * error over epochs 17–18 (Table IV).
 */
class SectionSixSimulationTest {

  static final double B = 100_000; // 100 KB/s
  static final long SIZE = 10_000; // 10 KB
  static final double RATE = 6; // requests per second per active group
  static final long EPOCH_NANOS = Duration.ofSeconds(20).toNanos();
  static final long STEP_NANOS = Duration.ofMillis(1).toNanos();
  static final int[] SHARES = {10, 20, 30, 40};
  static final String[] NAMES = {"A", "B", "C", "D"};

  /** Table III: which groups are active in epochs 1..18 (A, B, C, D). */
  static final boolean[][] SCHEDULE = new boolean[18][];

  static {
    String[] rows = {
      "1111", "1111", "0111", "1011", "0011", "1101", "0101", "1001", "0001", "1110", "0110",
      "1010", "0010", "1100", "0100", "1000", "1111", "1111"
    };
    for (int e = 0; e < 18; e++) {
      SCHEDULE[e] = new boolean[4];
      for (int c = 0; c < 4; c++) {
        SCHEDULE[e][c] = rows[e].charAt(c) == '1';
      }
    }
  }

  record Timer(long atNanos, int client, int node, BandwidthTicket ticket) {}

  static final class Transfer {
    final int client;
    final BandwidthTicket ticket;
    double remainingBytes = SIZE;

    Transfer(int client, BandwidthTicket ticket) {
      this.client = client;
      this.ticket = ticket;
    }
  }

  /** Bytes delivered per group per epoch, and the shaper's counters. */
  record Result(
      double[][] bytesPerEpoch, double[][] bytesPerSecond, long[] refused, double maxMeasured) {}

  static Result run(BandwidthSettings settings) {
    return run(settings, 1);
  }

  /**
   * The run on {@code nodes} nodes behind a round-robin balancer: each node has its own shaper
   * and its own link at B, each group's requests alternate between the nodes, and with more
   * than one node the shapers share their measurements through an in-memory cluster every
   * quarter second, as the runtime's exchange does.
   */
  static Result run(BandwidthSettings settings, int nodes) {
    return run(settings, nodes, 1, 0);
  }

  /**
   * The run on {@code nodes} nodes whose links each serve {@code linkFactor} × B, with every
   * client's first request {@code phaseNanos} later than in the paper's run (the phase of the
   * arrivals against the manager rounds and the exchange).
   */
  static Result run(BandwidthSettings settings, int nodes, double linkFactor, long phaseNanos) {
    return run(settings, Timing.aligned(nodes), linkFactor, phaseNanos);
  }

  /**
   * When each node's timers fire: node n runs its manager round at {@code managerOffsets[n]}
   * plus multiples of the manager period and its exchange at {@code exchangeOffsets[n]} plus
   * multiples of the exchange period. In the runtime each node's timers start when the node
   * does, so over HTTP the nodes' rounds are not aligned.
   */
  record Timing(long[] managerOffsets, long[] exchangeOffsets) {
    static Timing aligned(int nodes) {
      return new Timing(new long[nodes], new long[nodes]);
    }

    int nodes() {
      return managerOffsets.length;
    }
  }

  /** The ages seen so far: of the other node's b̂ at each of a node's manager rounds. */
  static final class Ages {
    double sumSeconds;
    double maxSeconds;
    int count;

    void add(long ageNanos) {
      double s = ageNanos / 1e9;
      sumSeconds += s;
      maxSeconds = Math.max(maxSeconds, s);
      count++;
    }

    double meanSeconds() {
      return count == 0 ? 0 : sumSeconds / count;
    }
  }

  static Result run(BandwidthSettings settings, Timing timing, double linkFactor, long phaseNanos) {
    return run(settings, timing, linkFactor, phaseNanos, new Ages());
  }

  static Result run(
      BandwidthSettings settings, Timing timing, double linkFactor, long phaseNanos, Ages ages) {
    return run(settings, timing, linkFactor, phaseNanos, ages, Exchange.AT_ONCE, Load.PAPER);
  }

  /**
   * How the nodes exchange: {@code shipping} with a coordinator that, as Hazelcast's, writes and
   * reads on its own thread (a read is seen from the next step of the clock on), else with the
   * in-memory cluster read on the spot; {@code steps} in the runtime's three steps at {@link
   * ClusterExchange#PUBLISH_AT_NANOS}, {@link ClusterExchange#FETCH_AT_NANOS} and {@link
   * ClusterExchange#APPLY_AT_NANOS} of each period, else all at once at the timing's offsets.
   */
  record Exchange(boolean shipping, boolean steps) {
    static final Exchange AT_ONCE = new Exchange(false, false);
  }

  /** The clients' load: B, each active client's requests per second, the epoch's length. */
  record Load(double b, double rate, long epochNanos) {
    static final Load PAPER = new Load(B, RATE, EPOCH_NANOS);

    /** As over HTTP ({@code BandwidthSharesExperiment}): ten times the rates, 10 s epochs. */
    static final Load HTTP = new Load(10 * B, 10 * RATE, EPOCH_NANOS / 2);
  }

  /**
   * A coordinator that ships and reads on its own thread, as {@code HazelcastCoordinator}: a
   * publish writes this node's report and reads the others' right after, a fetch reads them
   * again, and {@link #view} returns the last read that has landed (one made before this step of
   * the clock).
   */
  static final class Shipping implements ClusterCoordinator {
    private final ClusterCoordinator cluster;
    private final FakeTicker ticker;
    private ClusterView seen = ClusterView.EMPTY;
    private ClusterView read;
    private long readAt;

    Shipping(ClusterCoordinator cluster, FakeTicker ticker) {
      this.cluster = cluster;
      this.ticker = ticker;
    }

    private void land() {
      if (read != null && ticker.read() > readAt) {
        seen = read;
        read = null;
      }
    }

    private void read() {
      land();
      read = cluster.view();
      readAt = ticker.read();
    }

    @Override
    public String node() {
      return cluster.node();
    }

    @Override
    public void publish(NodeReport report) {
      cluster.publish(report);
      read();
    }

    @Override
    public void fetch() {
      read();
    }

    @Override
    public ClusterView view() {
      land();
      return seen;
    }

    @Override
    public TokenClaim claim(String tokenKey, Duration keepFor, boolean keepIfLate) {
      return cluster.claim(tokenKey, keepFor, keepIfLate);
    }

    @Override
    public int expectedNodes() {
      return cluster.expectedNodes();
    }

    @Override
    public void close() {}
  }

  static Result run(
      BandwidthSettings settings,
      Timing timing,
      double linkFactor,
      long phaseNanos,
      Ages ages,
      Exchange exchange,
      Load load) {
    int nodes = timing.nodes();
    FakeTicker ticker = new FakeTicker(0);
    List<BandwidthShaper> shapers = new ArrayList<>();
    List<ClusterExchange> exchanges = new ArrayList<>();
    InMemoryCluster cluster =
        new InMemoryCluster(() -> Math.floorDiv(ticker.read(), 1_000_000_000L), nodes);
    for (int n = 0; n < nodes; n++) {
      BandwidthShaper shaper = new BandwidthShaper(settings, ticker);
      shapers.add(shaper);
      ClusterCoordinator c = cluster.node("node-" + n);
      exchanges.add(
          new ClusterExchange(
              exchange.shipping() ? new Shipping(c, ticker) : c,
              () -> Math.floorDiv(ticker.read(), 1_000_000_000L),
              List.of(shaper)));
    }
    List<ClientGroup> groups = settings.groups();
    PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.atNanos, b.atNanos));
    List<List<Transfer>> links = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      links.add(new ArrayList<>());
    }
    double[][] bytes = new double[18][4];
    int seconds = (int) (18 * load.epochNanos() / 1_000_000_000L);
    double[][] perSecond = new double[seconds][4];
    long[] refused = new long[4];
    long interval = Math.round(1e9 / load.rate());
    long[] nextArrival = new long[4];
    int[] sent = new int[4];
    for (int c = 0; c < 4; c++) {
      nextArrival[c] = c * interval / 4 + phaseNanos; // the clients are not in lock step
    }
    long[] nextManager = new long[nodes];
    long[] nextExchange = new long[nodes];
    // When node n's b̂ was last updated, when the b̂ it last published was, and the other
    // node's b̂'s time as n last received it.
    long[] roundAt = new long[nodes];
    long[] publishedRoundAt = new long[nodes];
    long[] heardRoundAt = new long[nodes];
    for (int n = 0; n < nodes; n++) {
      nextManager[n] = settings.managerPeriodNanos() + timing.managerOffsets()[n];
      nextExchange[n] =
          exchange.steps() ? ClusterExchange.PUBLISH_AT_NANOS : timing.exchangeOffsets()[n];
    }
    long end = 18 * load.epochNanos();
    for (ticker.setNanos(0); ticker.read() < end; ticker.advanceNanos(STEP_NANOS)) {
      int epoch = (int) (ticker.read() / load.epochNanos());
      int second = (int) (ticker.read() / 1_000_000_000L);
      for (int n = 0; nodes > 1 && n < nodes; n++) {
        if (ticker.read() < nextExchange[n]) {
          continue;
        }
        ClusterExchange x = exchanges.get(n);
        if (!exchange.steps()) {
          x.run();
          publishedRoundAt[n] = roundAt[n];
          heardRoundAt[n] = publishedRoundAt[1 - n];
          nextExchange[n] += ClusterExchange.PERIOD_NANOS;
          continue;
        }
        long inPeriod = Math.floorMod(nextExchange[n], ClusterExchange.PERIOD_NANOS);
        if (inPeriod == ClusterExchange.PUBLISH_AT_NANOS) {
          x.publish();
          publishedRoundAt[n] = roundAt[n];
          nextExchange[n] += ClusterExchange.FETCH_AT_NANOS - ClusterExchange.PUBLISH_AT_NANOS;
        } else if (inPeriod == ClusterExchange.FETCH_AT_NANOS) {
          x.fetch();
          nextExchange[n] += ClusterExchange.APPLY_AT_NANOS - ClusterExchange.FETCH_AT_NANOS;
        } else {
          x.apply();
          heardRoundAt[n] = publishedRoundAt[1 - n];
          nextExchange[n] +=
              ClusterExchange.PERIOD_NANOS
                  - ClusterExchange.APPLY_AT_NANOS
                  + ClusterExchange.PUBLISH_AT_NANOS;
        }
      }
      for (int c = 0; c < 4; c++) {
        while (nextArrival[c] <= ticker.read()) {
          nextArrival[c] += interval;
          if (!SCHEDULE[epoch][c]) {
            continue;
          }
          int node = sent[c]++ % nodes;
          ShapingDecision d = shapers.get(node).decide(groups.get(c), SIZE);
          switch (d.kind()) {
            case ADMIT -> links.get(node).add(new Transfer(c, d.ticket()));
            case DELAY ->
                timers.add(new Timer(ticker.read() + d.delayNanos(), c, node, d.ticket()));
            case REJECT -> refused[c]++;
            default -> throw new AssertionError(d);
          }
        }
      }
      while (!timers.isEmpty() && timers.peek().atNanos() <= ticker.read()) {
        Timer t = timers.poll();
        t.ticket().delayEnded();
        links.get(t.node()).add(new Transfer(t.client(), t.ticket()));
      }
      for (List<Transfer> link : links) {
        serve(link, bytes[epoch], perSecond[second], linkFactor * load.b());
      }
      for (int n = 0; n < nodes; n++) {
        if (ticker.read() >= nextManager[n]) {
          shapers.get(n).managerRound();
          roundAt[n] = ticker.read();
          if (nodes > 1 && ticker.read() > 2_000_000_000L) {
            ages.add(ticker.read() - heardRoundAt[n]);
          }
          nextManager[n] += settings.managerPeriodNanos();
        }
      }
    }
    return new Result(bytes, perSecond, refused, shapers.get(0).maxMeasuredBytesPerSecond());
  }

  /** One step of a link at B shared equally by the responses in flight on it. */
  private static void serve(
      List<Transfer> link, double[] bytes, double[] perSecond, double linkBytesPerSecond) {
    if (link.isEmpty()) {
      return;
    }
    double share = linkBytesPerSecond * STEP_NANOS / 1e9 / link.size();
    for (Iterator<Transfer> it = link.iterator(); it.hasNext(); ) {
      Transfer t = it.next();
      double sent = Math.min(share, t.remainingBytes);
      t.remainingBytes -= sent;
      bytes[t.client] += sent;
      perSecond[t.client] += sent;
      if (t.remainingBytes <= 1e-9) {
        it.remove();
        t.ticket.complete(SIZE);
      }
    }
  }

  static BandwidthSettings paperSettings(Measure measure) {
    return paperSettings(measure, B);
  }

  static BandwidthSettings paperSettings(Measure measure, double total) {
    BandwidthSettings.Builder b = BandwidthSettings.builder(total).measure(measure);
    for (int c = 0; c < 4; c++) {
      b.group(
          NAMES[c],
          SHARES[c],
          new GroupRule(AddressMatcher.parse(List.of("10.0.0." + (c + 1))), null, null));
    }
    return b.build();
  }

  /** Each group's percentage of the bytes delivered in epochs 17-18 (Table IV's "actual"). */
  static double[] finalAllocationPercent(Result r) {
    double[] last = new double[4];
    double sum = 0;
    for (int c = 0; c < 4; c++) {
      last[c] = r.bytesPerEpoch()[16][c] + r.bytesPerEpoch()[17][c];
      sum += last[c];
    }
    for (int c = 0; c < 4; c++) {
      last[c] = 100 * last[c] / sum;
    }
    return last;
  }

  /** The paper's equation 10 on fractions (it calls it MSE; it is a root of summed squares). */
  static double paperMse(double[] actualPercent) {
    double squares = 0;
    for (int c = 0; c < 4; c++) {
      squares += Math.pow((actualPercent[c] - SHARES[c]) / 100, 2);
    }
    return Math.sqrt(squares);
  }

  static String report(String title, Result r) {
    double epochSeconds = EPOCH_NANOS / 1e9;
    StringBuilder out =
        new StringBuilder(
            "\n"
                + title
                + "\n"
                + "Bandwidth per group (KB/s) per epoch (Figure 2 as a table)\n"
                + "epoch  active      A      B      C      D  total\n");
    for (int e = 0; e < 18; e++) {
      double total = 0;
      StringBuilder active = new StringBuilder();
      for (int c = 0; c < 4; c++) {
        active.append(SCHEDULE[e][c] ? NAMES[c] : "-");
      }
      out.append(String.format("%5d  %6s", e + 1, active));
      for (int c = 0; c < 4; c++) {
        double kbs = r.bytesPerEpoch()[e][c] / epochSeconds / 1000;
        total += kbs;
        out.append(String.format(" %6.2f", kbs));
      }
      out.append(String.format(" %6.2f%n", total));
    }
    double[] actual = finalAllocationPercent(r);
    double[] paperActual = {9.48, 19.05, 29.90, 41.56};
    out.append(
        "\nTable IV (epochs 17-18)\ngroup  allocation  actual  error | paper: actual"
            + "  error\n");
    for (int c = 0; c < 4; c++) {
      out.append(
          String.format(
              "%-5s  %8d %%  %6.2f  %5.2f |        %6.2f  %5.2f%n",
              NAMES[c],
              SHARES[c],
              actual[c],
              Math.abs(actual[c] - SHARES[c]),
              paperActual[c],
              Math.abs(paperActual[c] - SHARES[c])));
    }
    out.append(
        String.format("MSE (equation 10)        %.4f |                0.0190%n", paperMse(actual)));
    out.append(
        String.format(
            "A-hat at the end %.1f KB/s; refused A..D %s%n",
            r.maxMeasured() / 1000, java.util.Arrays.toString(r.refused())));
    return out.toString();
  }

  static double kbPerSecond(Result r, int epoch, int client) {
    return r.bytesPerEpoch()[epoch][client] / (EPOCH_NANOS / 1e9) / 1000;
  }

  @Test
  void reproducesTableFour() {
    Result r = run(paperSettings(Measure.THROUGHPUT));
    System.out.println(report("Li & Jamin Section VI, measure=throughput (default)", r));
    double[] actual = finalAllocationPercent(r);
    // The paper's worst error was 1.56 points and its MSE 0.019 on a real network; a
    // deterministic fluid link has less noise, so we hold ourselves to the paper's numbers.
    for (int c = 0; c < 4; c++) {
      assertThat(Math.abs(actual[c] - SHARES[c])).as("error of %s", NAMES[c]).isLessThan(1.6);
    }
    assertThat(paperMse(actual)).isLessThan(0.019);
    // The link is never oversubscribed and is fully used when all four compete.
    for (int e : new int[] {0, 1, 16, 17}) {
      double total = 0;
      for (int c = 0; c < 4; c++) {
        total += kbPerSecond(r, e, c);
      }
      assertThat(total).as("epoch %d total", e + 1).isGreaterThan(98).isLessThanOrEqualTo(100.01);
    }
    // A group alone gets all it asks for (6/s x 10 KB = 60 KB/s): unused shares are not wasted.
    assertThat(kbPerSecond(r, 8, 3)).as("D alone in epoch 9").isGreaterThan(58);
    assertThat(kbPerSecond(r, 12, 2)).as("C alone in epoch 13").isGreaterThan(58);
    // Every active group gets at least its share, less 2 points of measurement lag, once it
    // has been active a whole epoch (even epochs: they follow an epoch of the same activity
    // or not, so check the ones where nothing changed for the group).
    for (int c = 0; c < 4; c++) {
      assertThat(kbPerSecond(r, 1, c)).as("%s in epoch 2", NAMES[c]).isGreaterThan(SHARES[c] - 2.0);
    }
    // An idle group gets nothing once its last delayed responses have drained.
    assertThat(kbPerSecond(r, 8, 0)).as("A idle in epoch 9").isLessThan(2);
  }

  /**
   * Two nodes behind a round-robin balancer, B and the shares meant for the pair. Each node
   * alone could deliver B, so without the exchange the pair would hand out 2 B and each group
   * its share twice over; with it the pair is held near B and each group's share of the pair's
   * total is within the paper's own error (1.56 points, MSE 0.019). Against our single node's
   * error, one run says little (1.13 points here against 0.49): see {@link
   * #twoNodesAreWithinTheSingleNodesErrorOverSixteenPhases}.
   */
  @Test
  void twoNodesKeepTheSharesOfTheWholeFarm() {
    Result r = run(paperSettings(Measure.THROUGHPUT), 2);
    System.out.println(report("Li & Jamin Section VI on two nodes, measure=throughput", r));
    double[] actual = finalAllocationPercent(r);
    for (int c = 0; c < 4; c++) {
      assertThat(Math.abs(actual[c] - SHARES[c])).as("error of %s", NAMES[c]).isLessThan(1.56);
    }
    assertThat(paperMse(actual)).isLessThan(0.019);
    for (int e : new int[] {1, 16, 17}) {
      double total = 0;
      for (int c = 0; c < 4; c++) {
        total += kbPerSecond(r, e, c);
      }
      assertThat(total).as("epoch %d total", e + 1).isLessThan(B / 1000 * 1.1);
    }
  }

  /** The largest error over the four groups in epochs 17–18, in percentage points. */
  static double maxError(Result r) {
    double[] actual = finalAllocationPercent(r);
    double max = 0;
    for (int c = 0; c < 4; c++) {
      max = Math.max(max, Math.abs(actual[c] - SHARES[c]));
    }
    return max;
  }

  /**
   * One run's errors hang on the phase of the arrivals against the manager rounds and the
   * exchange: a 10 KB response is a quarter of a point of epochs 17–18, and the largest error of
   * one run moves by that quantum with the phase (0.41 to 0.74 points on one node, 0.17 to 1.13
   * on two). Over sixteen phases of the clients' first requests, spread over one interarrival
   * time, two nodes sharing their measurements are within the single node's error: mean largest
   * error 0.57 points against 0.55, mean MSE 0.0086 against 0.0078. (Before each node's part of
   * a group rose only into the room the other's part leaves: 0.61 points and 0.0083, the
   * difference between the two well inside the quantum; over HTTP, where a response is 0.05
   * points, the same change took the pair's MSE from 0.0097 and 0.0100 to 0.0081.)
   */
  @Test
  void twoNodesAreWithinTheSingleNodesErrorOverSixteenPhases() {
    BandwidthSettings s = paperSettings(Measure.THROUGHPUT);
    int phases = 16;
    long step = Math.round(1e9 / RATE) / phases;
    double[] meanMse = new double[3];
    double[] meanMaxError = new double[3];
    for (int nodes = 1; nodes <= 2; nodes++) {
      StringBuilder line = new StringBuilder("largest error per phase, " + nodes + " node(s):");
      for (int p = 0; p < phases; p++) {
        Result r = run(s, nodes, 1, p * step);
        double e = maxError(r);
        meanMaxError[nodes] += e / phases;
        meanMse[nodes] += paperMse(finalAllocationPercent(r)) / phases;
        line.append(String.format(" %.2f", e));
      }
      System.out.println(
          line
              + String.format(
                  "; mean %.3f points, mean MSE %.4f", meanMaxError[nodes], meanMse[nodes]));
    }
    assertThat(meanMse[2]).as("mean MSE, two nodes").isLessThan(1.15 * meanMse[1]);
    assertThat(meanMaxError[2])
        .as("mean largest error, two nodes")
        .isLessThan(meanMaxError[1] + 0.1);
  }

  @Test
  void perRequestMeasureMissesTheSharesWhenAGroupHasSeveralRequestsInFlight() {
    Result r = run(paperSettings(Measure.PER_REQUEST));
    System.out.println(
        report(
            "Li & Jamin Section VI, measure=perRequest (the paper's"
                + " per-response bytes / response time)",
            r));
    // Little's law: a group with n responses in flight perceives 1/n of what it receives,
    // so every group looks unsatisfied and the shares blur. This is why THROUGHPUT is the
    // default; the test fails if that stops being true.
    assertThat(paperMse(finalAllocationPercent(r))).isGreaterThan(0.019);
  }

  /**
   * The phase of the nodes' timers against each other, over 32 phases of the arrivals each, on
   * links that do not cut the overshoot (10 B, as loopback over HTTP): at each manager round the
   * other node's b̂ a node holds is at least one round old, and the alignment moves the pair's
   * mean largest error between about 0.46 and 0.63 points (one node: 0.38). Prints each
   * timing's mean largest error and MSE, and the rates of the first six seconds of epoch 17;
   * holds every timing to the paper's own MSE.
   */
  @Test
  void theNodesTimersPhase() {
    BandwidthSettings s = paperSettings(Measure.THROUGHPUT);
    int phases = 32;
    long step = Math.round(1e9 / RATE) / phases;
    long ms = 1_000_000L;
    String[] names = {
      "one node", "two, all at once", "two, as over HTTP", "two, exchange 125 ms after rounds"
    };
    Timing[] timings = {
      Timing.aligned(1),
      Timing.aligned(2),
      new Timing(new long[] {0, 300 * ms}, new long[] {100 * ms, 170 * ms}),
      new Timing(new long[] {0, 0}, new long[] {125 * ms, 125 * ms})
    };
    for (int v = 0; v < names.length; v++) {
      double meanError = 0;
      double meanMse = 0;
      Ages ages = new Ages();
      double[][] firstSeconds = new double[6][5];
      for (int p = 0; p < phases; p++) {
        Result r = run(s, timings[v], 10, p * step, ages);
        meanError += maxError(r) / phases;
        meanMse += paperMse(finalAllocationPercent(r)) / phases;
        addFirstSeconds(r, Load.PAPER, phases, firstSeconds);
      }
      StringBuilder line =
          new StringBuilder(
              String.format(
                  "%-34s largest error %.3f, MSE %.4f, other's b-hat at a round: mean age %.2f s,"
                      + " max %.2f s; epoch 17 A/B/C/D=total KB/s:",
                  names[v], meanError, meanMse, ages.meanSeconds(), ages.maxSeconds));
      System.out.println(line + firstSecondsText(firstSeconds));
      assertThat(meanMse).as(names[v]).isLessThan(0.019);
    }
  }

  /** Adds a run's KB/s per group and in total in the first six seconds of epoch 17, averaged. */
  private static void addFirstSeconds(Result r, Load load, int runs, double[][] into) {
    int first = (int) (16 * load.epochNanos() / 1_000_000_000L);
    for (int k = 0; k < into.length; k++) {
      for (int c = 0; c < 4; c++) {
        double kb = r.bytesPerSecond()[first + k][c] / 1000 / runs;
        into[k][c] += kb;
        into[k][4] += kb;
      }
    }
  }

  private static String firstSecondsText(double[][] seconds) {
    StringBuilder out = new StringBuilder();
    for (double[] sec : seconds) {
      out.append(
          String.format(" %.0f/%.0f/%.0f/%.0f=%.0f", sec[0], sec[1], sec[2], sec[3], sec[4]));
    }
    return out.toString();
  }

  /**
   * Two nodes at the load of the HTTP experiment (ten times the paper's rates, 10 s epochs, links
   * that do not cut the overshoot), over 16 phases of the arrivals against the rounds, with a
   * coordinator that ships and reads on its own thread as Hazelcast's does. Exchanged at once a
   * quarter second apart, a node applied the view read at its previous exchange, whose other
   * node's b̂ was a round older: mean largest error 0.62 points against one node's 0.50, MSE
   * 0.0083 against 0.0061. In the runtime's three steps (publish, fetch, apply) the pair is
   * within one node's error. In every variant the largest error is group A's, below its share:
   * A gets its 100 KB/s every second, but B and C, returning with their b̂ decayed, get up to
   * 2 b_i for a second or two, and the pair's total rises over B. Prints each variant's mean
   * largest error and MSE, each group's mean signed error, how often each group had the largest,
   * and the mean rates of the first six seconds of epoch 17.
   */
  @Test
  void twoNodesExchangingInStepsAreWithinTheSingleNodesErrorAtTheLoadOfTheHttpExperiment() {
    long ms = 1_000_000L;
    Timing quarterPlusEighth = new Timing(new long[] {0, 0}, new long[] {125 * ms, 125 * ms});
    String[] names = {
      "one node", "two, in memory, at once", "two, shipping, at once", "two, shipping, in steps"
    };
    Timing[] timings = {Timing.aligned(1), quarterPlusEighth, quarterPlusEighth, Timing.aligned(2)};
    Exchange[] exchanges = {
      Exchange.AT_ONCE, Exchange.AT_ONCE, new Exchange(true, false), new Exchange(true, true)
    };
    Load load = Load.HTTP;
    BandwidthSettings s = paperSettings(Measure.THROUGHPUT, load.b());
    int phases = 16;
    double[] meanError = new double[names.length];
    double[] meanMse = new double[names.length];
    for (int v = 0; v < names.length; v++) {
      double[] signed = new double[4];
      int[] largest = new int[4];
      double[][] firstSeconds = new double[6][5];
      for (int p = 0; p < phases; p++) {
        long phase = p * (500 * ms) / phases + p * Math.round(1e9 / load.rate()) / phases;
        Result r = run(s, timings[v], 10, phase, new Ages(), exchanges[v], load);
        meanError[v] += maxError(r) / phases;
        double[] actual = finalAllocationPercent(r);
        meanMse[v] += paperMse(actual) / phases;
        int worst = 0;
        for (int c = 0; c < 4; c++) {
          signed[c] += (actual[c] - SHARES[c]) / phases;
          if (Math.abs(actual[c] - SHARES[c]) > Math.abs(actual[worst] - SHARES[worst])) {
            worst = c;
          }
        }
        largest[worst]++;
        addFirstSeconds(r, load, phases, firstSeconds);
      }
      StringBuilder line =
          new StringBuilder(
              String.format(
                  "%-25s largest error %.3f, MSE %.4f; signed error A..D %+.2f %+.2f %+.2f %+.2f;"
                      + " largest A..D %s; epoch 17 A/B/C/D=total KB/s:",
                  names[v],
                  meanError[v],
                  meanMse[v],
                  signed[0],
                  signed[1],
                  signed[2],
                  signed[3],
                  java.util.Arrays.toString(largest)));
      System.out.println(line + firstSecondsText(firstSeconds));
    }
    assertThat(meanError[3]).as("two nodes in steps").isLessThan(meanError[0] + 0.02);
    assertThat(meanMse[3]).as("two nodes in steps").isLessThan(1.03 * meanMse[0]);
    // What the steps fix: the view of the previous exchange.
    assertThat(meanError[2]).as("two nodes at once").isGreaterThan(meanError[3] + 0.05);
  }
}
