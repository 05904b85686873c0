package org.overloadcontrol.it.experiments;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LoopbackCluster;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Li &amp; Jamin §VI over real HTTP: the filter in embedded Jetty 12 shares B = 1 MB/s among
 * four client groups (the {@code X-Client-Group} header) at 10/20/30/40 %, in front of a
 * servlet serving 10 KB files. Each client asks for a file 60 times a second while active
 * (600 KB/s, 60 % of B, as the paper's 6 × 10 KB/s were of its 100 KB/s), open loop, following
 * Table III's activity schedule with epochs of {@code experiment.seconds} (default 10 s instead
 * of the paper's two minutes). Measures the bytes each client receives per second: the
 * paper's Figure 2, and Table IV over epochs 17–18, when all four are active again.
 */
class BandwidthSharesExperiment {

  static final long TOTAL_BYTES_PER_SECOND = 1_000_000;
  static final int FILE_BYTES = 10_000;
  static final double RATE_PER_CLIENT = 60;
  static final int[] SHARES = {10, 20, 30, 40};
  static final String[] NAMES = {"A", "B", "C", "D"};
  static final double[] PAPER_ACTUAL = {9.48, 19.05, 29.90, 41.56};
  static final double PAPER_MSE = 0.0190;

  /** Table III: which of A, B, C, D is active in epochs 1..18. */
  static final String[] SCHEDULE = {
    "1111", "1111", "0111", "1011", "0011", "1101", "0101", "1001", "0001", "1110", "0110", "1010",
    "0010", "1100", "0100", "1000", "1111", "1111"
  };

  static String group(int client) {
    return NAMES[client].toLowerCase(Locale.ROOT);
  }

  static boolean active(int epoch, int client) {
    return SCHEDULE[epoch].charAt(client) == '1';
  }

  /** What one client received and was told. */
  static final class ClientCounts {
    final PerSecond bytes;
    final PerSecond refused;
    final LongAdder ok = new LongAdder();
    final LongAdder tooMany = new LongAdder();
    final LongAdder other = new LongAdder();
    final LongAdder sent = new LongAdder();

    ClientCounts(long startNanos, int seconds) {
      bytes = new PerSecond(startNanos, seconds);
      refused = new PerSecond(startNanos, seconds);
    }
  }

  /**
   * {@code -Dexperiment.nodes}: the node counts to run, one after the other, e.g. {@code 1,2}
   * (default {@code 1}). With more than one, the nodes run in cluster mode (an embedded
   * Hazelcast member each, TCP/IP join on loopback), B and the shares are the farm's, and each
   * client sends its requests to the nodes in turn (round robin, as a balancer without
   * stickiness).
   */
  static List<Integer> nodeCounts() {
    String v = System.getProperty("experiment.nodes", "");
    List<Integer> out = new ArrayList<>();
    if (!v.isBlank() && !v.startsWith("${")) {
      for (String n : v.split(",")) {
        out.add(Integer.parseInt(n.trim()));
      }
    }
    return out.isEmpty() ? List.of(1) : out;
  }

  @Test
  void sectionSix() throws Exception {
    for (int nodes : nodeCounts()) {
      run(nodes);
    }
  }

  private static void run(int nodeCount) throws Exception {
    int epochSeconds = ExperimentShop.seconds("experiment.seconds", 10);
    int runSeconds = SCHEDULE.length * epochSeconds;
    String loadBefore = ExperimentShop.load();
    LoopbackCluster cluster = LoopbackCluster.of("bandwidth", nodeCount);
    List<WebContainer> servers = new ArrayList<>();
    ClientCounts[] counts = new ClientCounts[4];
    long start;
    try {
      for (int n = 0; n < nodeCount; n++) {
        Map<String, String> filter = filter();
        if (nodeCount > 1) {
          filter.putAll(cluster.settings(n));
        }
        Path dir =
            new ExplodedWebApp()
                .withOverloadFilter(filter)
                .withServlet(
                    "files",
                    FixedSizeServlet.class,
                    Map.of("sizeBytes", Integer.toString(FILE_BYTES)),
                    "/files/*")
                .writeUnder(
                    Files.createDirectories(ExperimentShop.OUT.resolve("apps")),
                    "bandwidth-" + nodeCount + "-" + n);
        servers.add(ContainerKind.JETTY.start(Deployment.of(dir)));
      }
      HttpClient client = client();
      try {
        List<URI> files =
            servers.stream().map(s -> s.baseUri().resolve("files/ten-kb.bin")).toList();
        // Warm the path up (class loading, JIT, the groups' first measurements) outside the run.
        for (int i = 0; i < 20; i++) {
          for (int g = 0; g < 4; g++) {
            int c = g;
            client
                .newRequest(files.get(i % files.size()))
                .headers(h -> h.put("X-Client-Group", group(c)))
                .timeout(10, TimeUnit.SECONDS)
                .send();
          }
        }
        // Lets the groups' measured bandwidths decay back to idle (and the members meet).
        Thread.sleep(3000);
        start = System.nanoTime();
        for (int c = 0; c < 4; c++) {
          counts[c] = new ClientCounts(start, runSeconds + 5);
        }
        drive(client, files, counts, start, epochSeconds);
        Thread.sleep(2000); // the last delayed responses
      } finally {
        client.stop();
      }
    } finally {
      servers.forEach(WebContainer::close);
    }
    String loadAfter = ExperimentShop.load();
    report(counts, epochSeconds, nodeCount, loadBefore, loadAfter);
  }

  private static Map<String, String> filter() {
    Map<String, String> filter = new LinkedHashMap<>();
    filter.put("bandwidth.total", "1MB/s");
    filter.put("bandwidth.paths", "/files/*");
    for (int c = 0; c < 4; c++) {
      String g = "bandwidth.groups." + NAMES[c].toLowerCase(Locale.ROOT);
      filter.put(g + ".share", SHARES[c] + "%");
      filter.put(g + ".match.header", "X-Client-Group=" + NAMES[c].toLowerCase(Locale.ROOT));
    }
    return filter;
  }

  private static HttpClient client() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 4);
    threads.setName("bandwidth-clients");
    threads.setDaemon(true);
    HttpClient client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(512);
    client.setMaxRequestsQueuedPerDestination(100_000);
    client.setFollowRedirects(false);
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.start();
    return client;
  }

  /**
   * Sends each active client's requests at its fixed rate, open loop (a delayed response does
   * not hold the next request back, as httperf did not); the four clients are out of phase.
   * With several nodes each client sends to them in turn.
   */
  private static void drive(
      HttpClient client, List<URI> files, ClientCounts[] counts, long start, int epochSeconds) {
    int[] sent = new int[4];
    long interval = Math.round(1e9 / RATE_PER_CLIENT);
    long end = start + SCHEDULE.length * (long) epochSeconds * 1_000_000_000L;
    long[] next = new long[4];
    for (int c = 0; c < 4; c++) {
      next[c] = start + c * interval / 4;
    }
    while (true) {
      int first = 0;
      for (int c = 1; c < 4; c++) {
        if (next[c] < next[first]) {
          first = c;
        }
      }
      long due = next[first];
      if (due >= end) {
        return;
      }
      long now = System.nanoTime();
      if (due > now) {
        LockSupport.parkNanos(due - now);
      }
      next[first] += interval;
      int epoch = (int) ((due - start) / (epochSeconds * 1_000_000_000L));
      if (active(epoch, first)) {
        send(client, files.get(sent[first]++ % files.size()), first, counts[first]);
      }
    }
  }

  private static void send(HttpClient client, URI file, int c, ClientCounts counts) {
    counts.sent.increment();
    client
        .newRequest(file)
        .headers(h -> h.put("X-Client-Group", group(c)))
        .timeout(30, TimeUnit.SECONDS)
        .send(
            new org.eclipse.jetty.client.BufferingResponseListener(64 * 1024) {
              @Override
              public void onComplete(Result result) {
                long now = System.nanoTime();
                if (result.isFailed()) {
                  counts.other.increment();
                } else if (result.getResponse().getStatus() == 200) {
                  counts.ok.increment();
                  counts.bytes.add(now, getContent().length);
                } else if (result.getResponse().getStatus() == 429) {
                  counts.tooMany.increment();
                  counts.refused.add(now, 1);
                } else {
                  counts.other.increment();
                }
              }
            });
  }

  private static void report(
      ClientCounts[] counts, int epochSeconds, int nodeCount, String loadBefore, String loadAfter)
      throws Exception {
    String name = nodeCount == 1 ? "bandwidth-shares" : "bandwidth-shares-" + nodeCount + "-nodes";
    String where =
        nodeCount == 1
            ? "OverloadFilter in embedded Jetty 12"
            : nodeCount
                + " Jetty 12 nodes in cluster mode (B and the shares the farm's), each client's"
                + " requests sent to the nodes in turn,";
    int seconds = SCHEDULE.length * epochSeconds;
    double[][] bytes = new double[4][seconds];
    for (int c = 0; c < 4; c++) {
      for (int s = 0; s < seconds; s++) {
        bytes[c][s] = counts[c].bytes.sum(s);
      }
    }
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Bandwidth shares (Li & Jamin §VI) over HTTP%n%n%s bandwidth.total 1MB/s, groups"
                    + " A–D = 10/20/30/40 %% by header X-Client-Group, defaults otherwise (alpha"
                    + " 0.2, managerPeriod 500ms, standbyLimit 4, measure throughput). A servlet"
                    + " serves %d-byte files. Each client asks %.0f times a second while active"
                    + " (open loop, %.0f KB/s, %.0f %% of B); Table III's schedule with %d s"
                    + " epochs. Received bytes are counted per second when each 200 response"
                    + " completes. Load average %s before, %s after.%n%n",
                where,
                FILE_BYTES,
                RATE_PER_CLIENT,
                RATE_PER_CLIENT * FILE_BYTES / 1000,
                100 * RATE_PER_CLIENT * FILE_BYTES / TOTAL_BYTES_PER_SECOND,
                epochSeconds,
                loadBefore,
                loadAfter));
    int from = 16 * epochSeconds;
    AllocationTable last = AllocationTable.of(SHARES, bytes, from, seconds);
    AllocationTable firstTwo = AllocationTable.of(SHARES, bytes, 0, 2 * epochSeconds);
    md.append(
        String.format(
            Locale.ROOT,
            "## Table IV: allocation error, epochs 17–18 (%d s" + " with traffic)%n%n",
            last.secondCount()));
    md.append(last.markdown(NAMES, PAPER_ACTUAL, PAPER_MSE));
    md.append(
        String.format(
            Locale.ROOT,
            "%nThe same over epochs 1–2 (while Â is learnt): MSE" + " %.4f; errors",
            firstTwo.paperMse()));
    for (int c = 0; c < 4; c++) {
      md.append(String.format(Locale.ROOT, " %s %.2f", NAMES[c], firstTwo.errorPoints(c)));
    }
    md.append(
        " points.\n\n## Figure 2 as a table: KB/s received per epoch\n\n| epoch | active"
            + " | A | B | C | D | total | 429s A/B/C/D |\n|---|---|---|---|---|---|---|---|\n");
    for (int e = 0; e < SCHEDULE.length; e++) {
      StringBuilder active = new StringBuilder();
      double total = 0;
      StringBuilder row = new StringBuilder();
      StringBuilder refused = new StringBuilder();
      for (int c = 0; c < 4; c++) {
        active.append(active(e, c) ? NAMES[c] : "–");
        double sum = 0;
        long tooMany = 0;
        for (int s = e * epochSeconds; s < (e + 1) * epochSeconds; s++) {
          sum += bytes[c][s];
          tooMany += counts[c].refused.count(s);
        }
        refused.append(c == 0 ? "" : "/").append(tooMany);
        double kbs = sum / epochSeconds / 1000;
        total += kbs;
        row.append(String.format(Locale.ROOT, " %.1f |", kbs));
      }
      md.append(
          String.format(
              Locale.ROOT, "| %d | %s |%s %.1f | %s |%n", e + 1, active, row, total, refused));
    }
    md.append("\n| client | requests sent | 200 | 429 | other |\n|---|---|---|---|---|\n");
    for (int c = 0; c < 4; c++) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %d | %d |%n",
              NAMES[c],
              counts[c].sent.sum(),
              counts[c].ok.sum(),
              counts[c].tooMany.sum(),
              counts[c].other.sum()));
    }
    List<Charts.Line> lines = new ArrayList<>();
    List<Double> x = PerSecond.axis(seconds);
    List<Double> totals = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      double t = 0;
      for (int c = 0; c < 4; c++) {
        t += bytes[c][s];
      }
      totals.add(t / 1000);
    }
    for (int c = 0; c < 4; c++) {
      List<Double> y = new ArrayList<>();
      for (int s = 0; s < seconds; s++) {
        y.add(bytes[c][s] / 1000);
      }
      lines.add(new Charts.Line(NAMES[c] + " (" + SHARES[c] + " %)", x, y));
    }
    lines.add(new Charts.Line("total", x, totals));
    Charts.lines(
        ExperimentShop.OUT.resolve(name + ".png"),
        String.format(
            Locale.ROOT,
            "Bandwidth per client over time (Li & Jamin Fig. 2; B = 1 MB/s, %d s epochs, %d"
                + " node(s))",
            epochSeconds,
            nodeCount),
        "time (s)",
        "KB/s received",
        lines,
        false);
    md.append("\n![bandwidth per client](" + name + ".png)\n");
    StringBuilder csv = new StringBuilder("second,A,B,C,D\n");
    for (int s = 0; s < seconds; s++) {
      csv.append(s + 1);
      for (int c = 0; c < 4; c++) {
        csv.append(',').append((long) bytes[c][s]);
      }
      csv.append('\n');
    }
    Files.writeString(ExperimentShop.OUT.resolve(name + ".csv"), csv);
    Files.writeString(ExperimentShop.OUT.resolve(name + ".md"), md);
    System.out.println(md);
  }
}
