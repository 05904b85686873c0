package org.overloadcontrol.it.experiments.springcold;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A user's report repeated: a Spring Boot application with the starter and one
 * {@code @GetMapping} method that sleeps 50 ms under {@code @ResponseTimeTarget("100ms")},
 * nothing under {@code overload.*}, loaded by {@code ab -c 200} from the moment it has started
 * ("in the first 30 s it served 3,042 requests and refused 122,176"). Each run is a fresh JVM
 * ({@code ColdStartServer}); variants {@code default} (the starter as README says) and
 * {@code none} (the same application, {@code overload.spring.enabled=false}) alternate, so a
 * machine that drifts affects both. The load is ApacheBench itself ({@link ApacheBench}): 200
 * connections, each sending its next request when the previous answer came, for 30 s, then a
 * second {@code ab} for 20 s; the server's own request log splits each second into served and
 * refused, and the starter's concurrency limit is sampled beside it.
 *
 * <p>Run with {@code -Dexperiment.shop=spring}, which puts Spring Boot 4 and the starter on the
 * class path: {@code mvn -Pexperiments -Dexperiment.shop=spring -pl src-it -am verify
 * -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
 * -Dit.test=SpringColdStartExperiment}. Needs {@code ab} (Debian's apache2-utils). Options:
 * {@code -Dexperiment.runs} [2] runs of each variant, {@code -Dexperiment.seconds} [30,20] the
 * two windows, {@code -Dexperiment.variants} [default,none]. Report:
 * {@code target/experiments/spring-cold-start.md}, with plots, a per-second CSV and each run's
 * ab output, request log and Spring Boot log beside it.
 */
class SpringColdStartExperiment {

  static final Path OUT = Path.of("target", "experiments");

  /** How long the application's method sleeps (its {@code WorkController}), for the report. */
  static final long WORK_MILLIS = 50;

  /** ab's {@code -c}, the report's. */
  private static final int CONNECTIONS = 200;

  @Test
  void coldStart() throws Exception {
    ApacheBench.requireInstalled();
    ColdStartProcess.requireSpring();
    int runs = Integer.getInteger("experiment.runs", 2);
    int[] windows = windows(System.getProperty("experiment.seconds", ""));
    List<String> variants = variants(System.getProperty("experiment.variants", ""));
    int seconds = windows[0] + windows[1];
    List<ColdStartRun> results = new ArrayList<>();
    for (int round = 1; round <= runs; round++) {
      for (String variant : variants) {
        results.add(run(variant, round, windows[0], seconds));
      }
    }
    Path report =
        new ColdStartReport(OUT, windows[0], seconds, CONNECTIONS)
            .write(results, springBootVersion());
    System.out.println("[spring-cold] report: " + report.toAbsolutePath());
    assertThat(report).exists();
    for (ColdStartRun r : results) {
      assertThat(r.first().complete()).as("%s #%d answered", r.variant(), r.round()).isPositive();
    }
  }

  private static ColdStartRun run(String variant, int round, int firstSeconds, int seconds)
      throws Exception {
    String name = ColdStartReport.NAME + "-" + variant + "-" + round;
    try (ColdStartProcess server = ColdStartProcess.start(variant, OUT, name)) {
      ApacheBench.Result first =
          ApacheBench.run(
              server.target(), CONNECTIONS, firstSeconds, OUT.resolve(name + "-ab-1.txt"));
      ApacheBench.Result second =
          ApacheBench.run(
              server.target(),
              CONNECTIONS,
              seconds - firstSeconds,
              OUT.resolve(name + "-ab-2.txt"));
      ColdStartProcess.Logs logs = server.stop();
      ColdStartRun r =
          ColdStartRun.of(
              variant,
              round,
              server.startSeconds(),
              server.command(),
              server.springArguments(),
              first,
              second,
              logs,
              firstSeconds,
              seconds);
      System.out.printf(
          Locale.ROOT,
          "[spring-cold] %s: started in %.1f s; ab served %d, non-2xx %d; then %d, %d%n",
          name,
          r.startSeconds(),
          first.served(),
          first.non2xx(),
          second.served(),
          second.non2xx());
      return r;
    }
  }

  /** {@code -Dexperiment.seconds}: "30,20", or one number for the first window alone. */
  static int[] windows(String value) {
    String v = value.trim();
    if (v.isEmpty()) {
      return new int[] {30, 20};
    }
    String[] parts = v.split(",");
    try {
      int first = Integer.parseInt(parts[0].trim());
      int second = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : 20;
      if (parts.length <= 2 && first >= 1 && second >= 1) {
        return new int[] {first, second};
      }
    } catch (NumberFormatException e) {
      // Falls through to the message.
    }
    throw new IllegalArgumentException(
        "experiment.seconds: the two windows in whole seconds, such as 30,20; was '" + v + "'");
  }

  private static List<String> variants(String value) {
    List<String> out = new ArrayList<>();
    for (String s : (value.isBlank() ? "default,none" : value).split(",")) {
      String v = s.trim();
      if (!v.equals("default") && !v.equals("none")) {
        throw new IllegalArgumentException(
            "experiment.variants: 'default' and/or 'none', was '" + value + "'");
      }
      out.add(v);
    }
    return out;
  }

  /** Spring Boot's version, read by name: this class compiles without Spring. */
  private static String springBootVersion() {
    try {
      return (String)
          Class.forName("org.springframework.boot.SpringBootVersion")
              .getMethod("getVersion")
              .invoke(null);
    } catch (ReflectiveOperationException e) {
      return "(unknown)";
    }
  }
}
