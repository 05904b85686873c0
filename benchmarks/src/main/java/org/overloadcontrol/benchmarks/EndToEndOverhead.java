package org.overloadcontrol.benchmarks;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlets.QoSFilter;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * The filter's end-to-end cost: a trivial servlet in embedded Jetty 12 (ee10) over loopback,
 * without a filter, behind {@link OverloadFilter} when nothing is overloaded, and behind
 * Jetty's own {@link QoSFilter} with the same permit count. All servers run in this JVM and
 * are driven in turn by {@code wrk} (closed loop), several rounds in a new order each round,
 * so that the ratios hold on a noisy machine.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar \
 *       org.overloadcontrol.benchmarks.EndToEndOverhead [rounds] [seconds] [connections] [out-dir]
 * </pre>
 *
 * <p>With {@code -De2e.breakdown=true} two more variants show where the filter's cost goes:
 * the filter switched off ({@code enabled=false}) and the filter measuring without execution
 * permits. {@code -De2e.only=REGEX} keeps only the variants whose name matches (to run one
 * under a profiler). With {@code -De2e.profile=true} async-profiler samples the measured rounds
 * and {@code profile.md} splits each variant's CPU per request into the filter's own work and
 * the rest ({@link E2eProfile}). With {@code -De2e.spring=true} two more variants serve the same
 * response from a Spring Boot {@code @RestController}, without and with the starter
 * ({@link SpringBootServer}). With {@code -De2e.refusals=true} three more refuse every request:
 * concurrency-limits' bare 429 ({@link ThrottleEveryRequest}), and the filter with an admission
 * algorithm that admits nothing ({@link RefuseEveryRequest}), at once and after the wait for a
 * permit.
 *
 * <p>Each round starts a new server for each variant and warms it for a second before it is
 * measured ({@code -De2e.fresh=false}, and the profiling mode, keep one server per variant for
 * the whole run): a server instance carries a bias of its own that lasts for its life, and new
 * instances turn it into noise that the median over rounds averages out. The paired tables give
 * a 95 % bootstrap interval of each median, so a run says how much it can resolve.
 *
 * <p>Besides throughput it reports the server's CPU time per request (this JVM's CPU time over
 * the run divided by the requests wrk counted): the measure another process on the machine
 * disturbs least.
 */
public final class EndToEndOverhead {

  /** Permits of both {@code queue.permits} and QoSFilter's {@code maxRequests}. */
  static final int PERMITS = 64;

  private EndToEndOverhead() {}

  /**
   * A variant: its name, the filter (with init-params) in front of the servlet, if any, and what
   * serves it: the plain servlet, the servlet inside Jetty's {@link QoSHandler}, or a Spring Boot
   * application ({@link SpringBootServer}), with the starter when {@code filter} is set.
   */
  record Variant(
      String name, Class<? extends Filter> filter, Map<String, String> params, Host host) {
    Variant(String name, Class<? extends Filter> filter, Map<String, String> params) {
      this(name, filter, params, Host.SERVLET);
    }
  }

  /** What serves a variant's servlet. */
  enum Host {
    SERVLET,
    QOS_HANDLER,
    SPRING_BOOT
  }

  /** One wrk run. */
  record Run(
      int round,
      String variant,
      double requestsPerSecond,
      double p50Micros,
      double p90Micros,
      double p99Micros,
      long errors,
      double serverCpuMicrosPerRequest,
      long requests,
      double stealPercent) {}

  // Jetty deprecated QoSFilter for its core QoSHandler; it stays the baseline here because it
  // is the servlet filter a WAR user would otherwise deploy.
  @SuppressWarnings("deprecation")
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int connections = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    Path out = Path.of(args.length > 3 ? args[3] : "target/e2e");
    Files.createDirectories(out);

    List<Variant> variants =
        new ArrayList<>(
            List.of(
                new Variant("no filter", null, Map.of()),
                new Variant(
                    "OverloadFilter, no target",
                    OverloadFilter.class,
                    Map.of("queue.permits", Integer.toString(PERMITS))),
                new Variant(
                    "OverloadFilter, target 10s",
                    OverloadFilter.class,
                    Map.of(
                        "queue.permits", Integer.toString(PERMITS),
                        "endpoints.hello.target", "10s",
                        "endpoints.hello.controller.rateMax", "1e7",
                        "endpoints.hello.controller.initialRate", "1e7",
                        "endpoints.hello.controller.bucketDepth", "10000")),
                // The same with the token bucket instead of the default concurrency limit: what the
                // filter with a target cost before the limit became the default.
                new Variant(
                    "OverloadFilter, target 10s, rate",
                    OverloadFilter.class,
                    Map.of(
                        "queue.permits", Integer.toString(PERMITS),
                        "admission.controller", "rate",
                        "endpoints.hello.target", "10s",
                        "endpoints.hello.controller.rateMax", "1e7",
                        "endpoints.hello.controller.initialRate", "1e7",
                        "endpoints.hello.controller.bucketDepth", "10000")),
                new Variant(
                    "QoSFilter", QoSFilter.class, Map.of("maxRequests", Integer.toString(PERMITS))),
                // Jetty 12's replacement for QoSFilter, a handler in front of the context.
                new Variant("QoSHandler", null, Map.of(), Host.QOS_HANDLER),
                // A second server without a filter: its ratio to the first is what the machine's
                // noise alone does to a ratio in this run (an A/A comparison).
                new Variant("no filter (A/A control)", null, Map.of())));
    if (Boolean.getBoolean("e2e.breakdown")) {
      // Where the filter's cost goes: in the chain but switched off (enabled=false: one field
      // read), and measuring without execution permits (no shared permit counter).
      variants.add(
          new Variant(
              "OverloadFilter, disabled", OverloadFilter.class, Map.of("enabled", "false")));
      variants.add(new Variant("OverloadFilter, no permits", OverloadFilter.class, Map.of()));
    }

    if (Boolean.getBoolean("e2e.refusals")) {
      // What a refusal costs (issue 32): every request refused, by concurrency-limits' bare 429,
      // and by the filter at once and after its wait for a permit (0.7 of a 20 ms target).
      variants.add(new Variant("refusal: 429, no body", ThrottleEveryRequest.class, Map.of()));
      variants.add(
          new Variant(
              "refusal: OverloadFilter, at once",
              OverloadFilter.class,
              refusing(Map.of("admission.maxWait", "0"))));
      variants.add(
          new Variant(
              "refusal: OverloadFilter, after its wait", OverloadFilter.class, refusing(Map.of())));
    }

    if (Boolean.getBoolean("e2e.spring")) {
      // A trivial @RestController in Spring Boot, without and with the starter (issue 20).
      SpringBootServer.requireSpringBoot();
      variants.add(new Variant("Spring Boot", null, Map.of(), Host.SPRING_BOOT));
      variants.add(
          new Variant("Spring Boot, starter", OverloadFilter.class, Map.of(), Host.SPRING_BOOT));
    }

    String only = System.getProperty("e2e.only");
    if (only != null) {
      // One variant (or a few) alone, e.g. under a profiler: -De2e.only='no permits'.
      Pattern selected = Pattern.compile(only);
      variants.removeIf(v -> !selected.matcher(v.name()).find());
      if (variants.isEmpty()) {
        throw new IllegalArgumentException("e2e.only=" + only + " matches no variant");
      }
    }

    // Not with the profiler: it would sample the new servers' warm-up, which wrk does not count.
    boolean fresh =
        !"false".equals(System.getProperty("e2e.fresh")) && !Boolean.getBoolean("e2e.profile");
    Map<String, Server> servers = new LinkedHashMap<>();
    List<Run> runs = new ArrayList<>();
    E2eProfile profile = null;
    try {
      for (Variant v : variants) {
        servers.put(v.name(), start(v));
      }
      // Warm-up: JIT for every variant (twice, so that later compilations settle too),
      // results thrown away.
      for (int pass = 0; pass < 2; pass++) {
        for (Variant v : variants) {
          wrk(0, v.name(), port(servers.get(v.name())), Math.max(3, seconds), connections);
        }
      }
      if (Boolean.getBoolean("e2e.profile")) {
        profile = E2eProfile.start();
      }
      Random shuffle = new Random(1);
      for (int round = 1; round <= rounds; round++) {
        // A new order each round (seeded): a rotation would keep each variant after the same
        // one every round, and in a 40-round run with rotation the A/A control ran at 103.7 %
        // of its identical twin, which always ran right after it.
        List<Variant> order = new ArrayList<>(variants);
        Collections.shuffle(order, shuffle);
        for (Variant v : order) {
          if (fresh) {
            // A new server instance each round, warmed for a second (its pool's threads, the
            // connections): one instance keeps its own bias from round to round (two identical
            // unfiltered servers differed by 3-5 % over eight rounds), new ones turn that bias
            // into noise that the median over rounds averages out. The code stays compiled.
            servers.remove(v.name()).stop();
            servers.put(v.name(), start(v));
            wrk(0, v.name(), port(servers.get(v.name())), 1, connections);
          }
          Run r = wrk(round, v.name(), port(servers.get(v.name())), seconds, connections);
          runs.add(r);
          System.out.printf(
              Locale.ROOT,
              "round %d  %-28s %10.0f req/s  p50 %7.0f us  p90 %7.0f"
                  + " us  p99 %7.0f us  errors %d  server CPU %5.2f us/req  steal %4.1f %%%n",
              round,
              v.name(),
              r.requestsPerSecond(),
              r.p50Micros(),
              r.p90Micros(),
              r.p99Micros(),
              r.errors(),
              r.serverCpuMicrosPerRequest(),
              r.stealPercent());
        }
      }
      if (profile != null) {
        Map<String, String> pools = new LinkedHashMap<>();
        Map<String, Long> requests = new LinkedHashMap<>();
        for (Variant v : variants) {
          pools.put(v.name(), poolName(v));
        }
        for (Run r : runs) {
          requests.merge(r.variant(), r.requests(), Long::sum);
        }
        System.out.println(profile.stop(pools, requests, out));
      }
    } finally {
      for (Server s : servers.values()) {
        s.stop();
      }
    }
    E2eReport report = new E2eReport(variants.stream().map(Variant::name).toList(), runs);
    String table = report.markdown() + "\n" + report.pairedTable(variants.get(0).name());
    if (variants.stream().anyMatch(v -> v.name().equals("QoSFilter"))) {
      table += "\n" + report.pairedTable("QoSFilter");
    }
    table += "\n" + report.cpuPairedTable(variants.get(0).name());
    if (variants.stream().anyMatch(v -> v.name().equals(E2eReport.TODAYS_FILTER))) {
      table += "\n" + report.cpuPairedTable(E2eReport.TODAYS_FILTER);
    }
    System.out.println();
    System.out.println(table);
    Files.writeString(out.resolve("e2e.md"), table);
    Files.writeString(out.resolve("e2e.csv"), report.csv());
    report.plot(out.resolve("e2e-throughput.png"));
  }

  /** The filter's parameters for an endpoint whose every request is refused, plus {@code more}. */
  private static Map<String, String> refusing(Map<String, String> more) {
    Map<String, String> params = new LinkedHashMap<>(more);
    params.put("admission.controller", RefuseEveryRequest.NAME);
    params.put("endpoints.hello.target", "20ms");
    return params;
  }

  private static Server start(Variant v) throws Exception {
    if (v.host() == Host.SPRING_BOOT) {
      return SpringBootServer.start(v.filter() != null, poolName(v));
    }
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName(poolName(v));
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder hello = new ServletHolder("hello", new Hello());
    hello.setAsyncSupported(true);
    context.addServlet(hello, "/hello");
    if (v.filter() != null) {
      FilterHolder filter = new FilterHolder(v.filter());
      filter.setName(v.filter().getSimpleName());
      filter.setAsyncSupported(true);
      filter.setInitParameters(v.params());
      context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    }
    if (v.host() == Host.QOS_HANDLER) {
      QoSHandler qos = new QoSHandler(context);
      qos.setMaxRequestCount(PERMITS);
      server.setHandler(qos);
    } else {
      server.setHandler(context);
    }
    server.start();
    return server;
  }

  private static int port(Server server) {
    return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  private static String poolName(Variant v) {
    return "e2e-" + v.name().replaceAll("[^A-Za-z0-9]+", "-");
  }

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ");
  private static final Pattern PERCENTILE =
      Pattern.compile("^\\s+(50|90|99)%\\s+([0-9.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
  private static final Pattern ERRORS =
      Pattern.compile(
          "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)"
              + "|Non-2xx or 3xx responses: (\\d+)");

  /** Runs wrk with one thread (the other core serves) and parses its report. */
  private static Run wrk(int round, String variant, int port, int seconds, int connections)
      throws IOException, InterruptedException {
    // The server's CPU per request is the measure that another process on the machine
    // disturbs least: throughput moves with whatever else runs, CPU time per request does not.
    long cpuBefore = processCpuNanos();
    long[] ticksBefore = cpuTicks();
    Process p =
        new ProcessBuilder(
                "wrk",
                "-t1",
                "-c" + connections,
                "-d" + seconds + "s",
                "--latency",
                "http://127.0.0.1:" + port + "/hello")
            .redirectErrorStream(true)
            .start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (p.waitFor() != 0) {
      throw new IOException("wrk failed: " + output);
    }
    long cpuNanos = processCpuNanos() - cpuBefore;
    long[] ticksAfter = cpuTicks();
    double steal =
        ticksBefore == null || ticksAfter == null || ticksAfter[0] == ticksBefore[0]
            ? Double.NaN
            : 100.0 * (ticksAfter[1] - ticksBefore[1]) / (ticksAfter[0] - ticksBefore[0]);
    Matcher count = REQUESTS.matcher(output);
    long requests = count.find() ? Long.parseLong(count.group(1)) : 0L;
    double cpuPerRequest = requests > 0 ? cpuNanos / 1e3 / requests : Double.NaN;
    Matcher rps = RPS.matcher(output);
    if (!rps.find()) {
      throw new IOException("no Requests/sec in wrk's output: " + output);
    }
    Map<String, Double> percentiles = new LinkedHashMap<>();
    Matcher m = PERCENTILE.matcher(output);
    while (m.find()) {
      double value = Double.parseDouble(m.group(2));
      double micros =
          switch (m.group(3)) {
            case "us" -> value;
            case "ms" -> value * 1e3;
            default -> value * 1e6;
          };
      percentiles.put(m.group(1), micros);
    }
    long errors = 0;
    Matcher e = ERRORS.matcher(output);
    if (e.find()) {
      System.out.println("wrk reported errors for " + variant + ": " + e.group());
      e.reset();
    }
    while (e.find()) {
      for (int g = 1; g <= e.groupCount(); g++) {
        if (e.group(g) != null) {
          errors += Long.parseLong(e.group(g));
        }
      }
    }
    return new Run(
        round,
        variant,
        Double.parseDouble(rps.group(1)),
        percentiles.getOrDefault("50", Double.NaN),
        percentiles.getOrDefault("90", Double.NaN),
        percentiles.getOrDefault("99", Double.NaN),
        errors,
        cpuPerRequest,
        requests,
        steal);
  }

  /**
   * The machine's CPU ticks from /proc/stat: {total, steal}, or null where there is none. Steal
   * is time the hypervisor gave this machine's CPUs to someone else: a run with much of it
   * says more about the host than about the variants.
   */
  private static long[] cpuTicks() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        total += Long.parseLong(f[i]);
      }
      return new long[] {total, f.length > 8 ? Long.parseLong(f[8]) : 0L};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** CPU time of this JVM (all its servers; only the one under load is busy). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** The servlet under test: a few bytes of text. */
  static final class Hello extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] BODY = "ok\n".getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      resp.setContentType("text/plain");
      resp.setContentLength(BODY.length);
      resp.getOutputStream().write(BODY);
    }
  }
}
