package org.overloadcontrol.it.experiments.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The server side of one matrix run, in a JVM of its own so that every run starts cold: deploys
 * a {@link Workload} under a {@link Guard} in a container with a server-side request log,
 * samples the guard's limit every 100 ms, prints {@code READY <url>} when it serves, and then
 * obeys its standard input: {@code stall <millis>} stalls every request ({@link Stall}),
 * {@code stop} writes {@code <run>-server-log.csv} and {@code <run>-limit.csv} into the output
 * directory, prints {@code DONE} and exits. Times are {@link System#nanoTime()}, which the load
 * generator's JVM on the same machine shares (one monotonic clock).
 *
 * <p>Arguments: workload key, guard name, container ({@code jetty} or {@code tomcat}), output
 * directory, run name.
 */
public final class WorkloadServer {

  private static final long SAMPLE_MILLIS = 100;

  private WorkloadServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      throw new IllegalArgumentException(
          "arguments: workload guard container outDir runName, were " + List.of(args));
    }
    Workload workload = Workload.named(args[0]);
    Guard guard = Guard.named(args[1]);
    ContainerKind kind = ContainerKind.valueOf(args[2].toUpperCase(Locale.ROOT));
    Path out = Path.of(args[3]);
    String run = args[4];

    ExplodedWebApp app = new ExplodedWebApp();
    Map<String, String> filter = guard.filterParams(workload);
    if (filter != null) {
      app.withOverloadFilter(filter);
      // A request over the limit then waits for its permit on its thread (queue.nonAsync:
      // block), resumed by a latch instead of a dispatch queued behind the container's work.
      if (Boolean.getBoolean(BLOCKING_WAITS)) {
        app.withoutAsyncSupport("overload");
      }
    }
    app.withServlet(Workload.PATH, workload.servlet(), workload.initParams(), "/" + Workload.PATH);
    Path dir = app.writeUnder(Files.createTempDirectory("workload-"), "app");
    ServerRequestLog log = new ServerRequestLog();
    ContainerHooks hooks = guard.install(ContainerHooks.NONE.withRequestLog(log), workload);
    ConcurrentLinkedQueue<double[]> limits = new ConcurrentLinkedQueue<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    try (WebContainer container =
        kind.start(Deployment.of(dir).withMaxThreads(Workload.DEFAULT_THREADS).withHooks(hooks))) {
      sampler.scheduleAtFixedRate(
          () ->
              limits.add(new double[] {System.nanoTime(), guard.limit(container.servletContext())}),
          0,
          SAMPLE_MILLIS,
          TimeUnit.MILLISECONDS);
      warmUp(container.baseUri().resolve(Workload.PATH), Integer.getInteger(WARM_UP, 0));
      System.out.println("READY " + container.baseUri().resolve(Workload.PATH));
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        String[] cmd = line.trim().split("\\s+");
        if (cmd[0].equals("stall")) {
          Stall.start(Long.parseLong(cmd[1]));
        } else if (cmd[0].equals("stop")) {
          break;
        }
      }
      sampler.shutdownNow();
      ServerRequestLog.writeCsv(out.resolve(run + "-server-log.csv"), log.entries());
      StringBuilder csv = new StringBuilder("nanos,limit\n");
      for (double[] s : limits) {
        csv.append(String.format(Locale.ROOT, "%.0f,%s%n", s[0], s[1]));
      }
      Files.writeString(out.resolve(run + "-limit.csv"), csv);
    }
    System.out.println("DONE");
    System.out.flush();
    // The container's non-daemon threads are gone, but a library's may linger.
    System.exit(0);
  }

  /**
   * {@code -Dexperiment.warmUp}: requests the server sends itself, 16 at a time, before it says
   * it serves, as a readiness check that warms the application would.
   */
  static final String WARM_UP = "experiment.warmUp";

  /**
   * {@code -Dexperiment.blockingWaits=true} in the server JVM ({@code -Dexperiment.serverJvmArgs}):
   * our filter declared without async support.
   */
  static final String BLOCKING_WAITS = "experiment.blockingWaits";

  private static void warmUp(URI uri, int requests) throws Exception {
    if (requests <= 0) {
      return;
    }
    HttpClient client = HttpClient.newHttpClient();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> sent = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        sent.add(
            pool.submit(
                () ->
                    client.send(
                        HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.discarding())));
      }
      for (Future<?> f : sent) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
