package org.overloadcontrol.it.experiments;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.overloadcontrol.it.matrix.ContainerMatrixScenario;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LoadPlan;
import org.overloadcontrol.it.support.LoadSummary;
import org.overloadcontrol.it.support.OpenLoopDriver;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Overload on virtual threads (issue 34): a method that sleeps 50 ms behind a downstream pool
 * of 8 (a capacity of 160 requests/s), offered 5× that on a container that runs requests on
 * virtual threads, twice: without the filter (nothing bounds the requests: they pile up as
 * waiters of the pool, each on its own virtual thread) and under the filter with its defaults
 * and a 100 ms target. A JFR recording of each run counts the virtual threads alive and the
 * {@code jdk.VirtualThreadPinned} events (threshold 0), and which of those have the library's
 * frames on their stack. Run by {@code Tomcat11VirtualThreadsExperiment} and {@code
 * Jetty121VirtualThreadsExperiment}; figures in docs/results.md §13.
 */
public final class VirtualThreadOverload {

  static final int POOL = 8;
  static final long SERVICE_MILLIS = 50;
  static final double CAPACITY_PER_SECOND = POOL * 1000.0 / SERVICE_MILLIS;
  static final Duration TARGET = Duration.ofMillis(100);
  static final double LOAD = 5.0;

  /** What one run showed. */
  public record Outcome(
      String name,
      LoadSummary load,
      double goodputPerSecond,
      int maxWaiters,
      List<Integer> waitersEveryHalfSecond,
      long maxHeapMiB,
      int maxVirtualThreadsAlive,
      int pinnedEvents,
      int pinnedOnLibraryFrames,
      Map<String, Integer> pinnedTopFrames,
      Map<String, Integer> pinnedOnLibraryFramesWhy) {

    String format() {
      return String.format(
          Locale.ROOT,
          "[vthreads] %s: sent %d, 200 %d, 503 %d, failed %d, other %d; goodput %.1f/s = %.2f of"
              + " capacity; p90 of 200s %d ms = %.2f of the target; pool waiters max %d"
              + " (every 0.5 s: %s); heap used max %d MiB; virtual threads alive max %d;"
              + " pinned events %d, on the library's frames %d; top frames %s; library's %s",
          name,
          load.sentCount(),
          load.okCount(),
          load.rejectedCount(),
          load.failedCount(),
          load.otherCount(),
          goodputPerSecond,
          goodputPerSecond / CAPACITY_PER_SECOND,
          load.okP90().toMillis(),
          load.okP90().toNanos() / (double) TARGET.toNanos(),
          maxWaiters,
          waitersEveryHalfSecond,
          maxHeapMiB,
          maxVirtualThreadsAlive,
          pinnedEvents,
          pinnedOnLibraryFrames,
          pinnedTopFrames,
          pinnedOnLibraryFramesWhy);
    }
  }

  private VirtualThreadOverload() {}

  /**
   * Both runs in {@code starter}'s container, each on a fresh deployment; prints each run's
   * line and writes them to {@code out}.
   *
   * @param seconds of load in the filtered run (its first 5 are warm-up); the unfiltered run
   *     sends for a third of it, which already leaves thousands waiting
   */
  public static List<Outcome> run(
      Path apps, String name, ContainerMatrixScenario.Starter starter, int seconds, Path out)
      throws Exception {
    List<Outcome> outcomes = new ArrayList<>();
    // Enough connections that the load generator does not bound the server's concurrency in
    // the unfiltered run (each takes two descriptors in this one process).
    try (OpenLoopDriver driver = new OpenLoopDriver(4000)) {
      outcomes.add(
          once(
              apps,
              name + " without the filter",
              starter,
              driver,
              false,
              Math.max(5, seconds / 3)));
      outcomes.add(once(apps, name + " filter defaults", starter, driver, true, seconds));
    }
    List<String> lines = outcomes.stream().map(Outcome::format).toList();
    lines.forEach(System.out::println);
    Files.createDirectories(out.getParent());
    Files.write(out, lines);
    return outcomes;
  }

  private static Outcome once(
      Path apps,
      String name,
      ContainerMatrixScenario.Starter starter,
      OpenLoopDriver driver,
      boolean filter,
      int seconds)
      throws Exception {
    ExplodedWebApp app = new ExplodedWebApp();
    if (filter) {
      app =
          app.withOverloadFilter(
              OverloadFilter.class, Map.of("endpoints.work.target", TARGET.toMillis() + "ms"));
    }
    Path dir =
        app.withServlet(
                "work",
                DownstreamPoolServlet.class,
                Map.of(
                    "permits",
                    Integer.toString(POOL),
                    "serviceTimeMillis",
                    Long.toString(SERVICE_MILLIS)),
                "/work")
            .writeUnder(apps, name.replaceAll("[^A-Za-z0-9]+", "-"));
    Path jfr = Files.createTempFile("vthreads", ".jfr");
    List<Integer> waiters = new CopyOnWriteArrayList<>();
    List<Long> heap = new CopyOnWriteArrayList<>();
    LoadSummary load;
    try (WebContainer container = starter.start(Deployment.of(dir).withVirtualThreads(true));
        Recording recording = new Recording()) {
      recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      recording.enable("jdk.VirtualThreadStart");
      recording.enable("jdk.VirtualThreadEnd");
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      recording.start();
      try {
        sampler.scheduleAtFixedRate(
            () -> {
              // The servlet publishes its pool on its first request (no load-on-startup).
              Object pool =
                  container.servletContext().getAttribute(DownstreamPoolServlet.POOL_ATTRIBUTE);
              waiters.add(pool instanceof Semaphore s ? s.getQueueLength() : 0);
              heap.add(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20);
            },
            0,
            500,
            TimeUnit.MILLISECONDS);
        load =
            driver.run(
                LoadPlan.of(
                        container.baseUri().resolve("work"),
                        LOAD * CAPACITY_PER_SECOND,
                        Duration.ofSeconds(seconds))
                    .withWarmup(Duration.ofSeconds(filter ? 5 : 0))
                    .withRequestTimeout(Duration.ofSeconds(filter ? 10 : 3))
                    .withHeaders(Map.of("Accept", "application/json")));
      } finally {
        sampler.shutdownNow();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
        recording.stop();
        recording.dump(jfr);
      }
    }
    double measuredSeconds = seconds - (filter ? 5 : 0);
    Outcome outcome =
        pinning(
            name,
            load,
            load.steadyCount(200) / measuredSeconds,
            waiters,
            heap.stream().mapToLong(Long::longValue).max().orElse(0),
            jfr);
    Files.deleteIfExists(jfr);
    return outcome;
  }

  /** Reads the recording: virtual threads alive at most, and the pinned events. */
  private static Outcome pinning(
      String name,
      LoadSummary load,
      double goodput,
      List<Integer> waiters,
      long maxHeapMiB,
      Path jfr)
      throws Exception {
    List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
    events.sort(Comparator.comparing(RecordedEvent::getStartTime));
    int alive = 0;
    int maxAlive = 0;
    int pinned = 0;
    int pinnedLibrary = 0;
    Map<String, Integer> topFrames = new HashMap<>();
    Map<String, Integer> libraryDetails = new LinkedHashMap<>();
    java.time.Instant first = events.isEmpty() ? null : events.get(0).getStartTime();
    for (RecordedEvent e : events) {
      switch (e.getEventType().getName()) {
        case "jdk.VirtualThreadStart" -> maxAlive = Math.max(maxAlive, ++alive);
        case "jdk.VirtualThreadEnd" -> alive--;
        case "jdk.VirtualThreadPinned" -> {
          pinned++;
          List<RecordedFrame> frames =
              e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
          RecordedFrame library =
              frames.stream().filter(VirtualThreadOverload::libraryFrame).findFirst().orElse(null);
          if (library != null) {
            pinnedLibrary++;
            // Why (JDK 24+ records it) and where: the first frame of the library under the top.
            Object reason = e.hasField("pinnedReason") ? e.getValue("pinnedReason") : "?";
            libraryDetails.merge(
                reason
                    + " at "
                    + library.getMethod().getType().getName()
                    + "."
                    + library.getMethod().getName()
                    + " (after "
                    + Duration.between(first, e.getStartTime()).toMillis()
                    + " ms)",
                1,
                Integer::sum);
          }
          String top =
              frames.isEmpty()
                  ? "?"
                  : frames.get(0).getMethod().getType().getName()
                      + "."
                      + frames.get(0).getMethod().getName();
          topFrames.merge(top, 1, Integer::sum);
        }
        default -> {}
      }
    }
    Map<String, Integer> top3 = new LinkedHashMap<>();
    topFrames.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(3)
        .forEach(en -> top3.put(en.getKey(), en.getValue()));
    return new Outcome(
        name,
        load,
        goodput,
        waiters.stream().mapToInt(Integer::intValue).max().orElse(-1),
        waiters,
        maxHeapMiB,
        maxAlive,
        pinned,
        pinnedLibrary,
        top3,
        libraryDetails);
  }

  /** A frame of the library itself: its packages, not the tests' or experiments' own. */
  private static boolean libraryFrame(RecordedFrame frame) {
    String type = frame.getMethod().getType().getName();
    return type.startsWith("org.overloadcontrol.") && !type.startsWith("org.overloadcontrol.it.");
  }
}
