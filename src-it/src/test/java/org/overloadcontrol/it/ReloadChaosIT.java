package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Reloads under load, for a while: every 2 s the filter's file changes, good and bad in turn
 * (targets, limits, waits, a group and an endpoint that come and go), while two endpoints take
 * steady load with requests waiting. At the end every request sent has one answer and is
 * counted once by the engine that took it, every engine ever in force was seen, and none has a
 * request waiting or a permit held. 60 s per container; {@code -Dit.reloadChaosSeconds=300}
 * for the five minutes.
 */
class ReloadChaosIT {

  private static final Duration LENGTH =
      Duration.ofSeconds(Long.getLong("it.reloadChaosSeconds", 60));

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(512);
    client.setFollowRedirects(false);
    client.start();
  }

  @AfterAll
  static void stopClient() throws Exception {
    client.stop();
  }

  /** The good files, in turn; a bad one between each two. */
  private static final String[] GOOD = {
    "admission:\n  maxLimit: 6\nendpoints:\n  work:\n    target: 200ms\n  slow:\n    target: 1s\n",
    "admission:\n  maxLimit: 3\n  groups:\n    slow:\n      endpoints: slow\n      maxLimit: 2\n"
        + "endpoints:\n  work:\n    target: 60ms\n  slow:\n    target: 600ms\n"
        + "classes:\n  gold:\n    rank: 9\n",
    "admission:\n  maxLimit: 8\nendpoints:\n  work:\n    target: 1s\n",
  };

  private static final String[] BAD = {
    "endpoints:\n  work:\n    target: soon\n",
    "admission:\n  maxLimit: lots\n",
    "endpoints:\n  wrok:\n    target: 1s\n",
    "metrics:\n  prefix: other\n",
  };

  private static void write(Path yaml, String text) throws Exception {
    Files.writeString(yaml, text);
    Files.setLastModifiedTime(yaml, FileTime.fromMillis(System.currentTimeMillis() + 1_000));
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  @SuppressWarnings("try") // the loads are closed before the counts, to count every answer
  void reloadsEveryTwoSecondsLoseNoRequestAndLeaveNothingHeld(ContainerKind kind) throws Exception {
    Path yaml = apps.resolve(kind + "-chaos.yaml");
    write(yaml, GOOD[0]);
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(Map.of("configFile", yaml.toString()))
            .withServlet("work", SleepServlet.class, Map.of("serviceTimeMillis", "40"), "/work")
            .withServlet("slow", SleepServlet.class, Map.of("serviceTimeMillis", "300"), "/slow")
            .writeUnder(apps, kind + "-chaos");
    Set<OverloadEngine> engines = Collections.newSetFromMap(new IdentityHashMap<>());
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
    int written = 0;
    int sent;
    try (WebContainer c = kind.start(Deployment.of(dir))) {
      Runnable seeEngine =
          () -> {
            OverloadEngine engine = FilterEngine.of(c.servletContext());
            if (engine != null) {
              synchronized (engines) {
                engines.add(engine);
              }
            }
          };
      seeEngine.run();
      watcher.scheduleAtFixedRate(seeEngine, 0, 20, TimeUnit.MILLISECONDS);
      try (ReloadIT.SteadyLoad work =
              new ReloadIT.SteadyLoad(client, c.baseUri().resolve("work"), 80);
          ReloadIT.SteadyLoad slow =
              new ReloadIT.SteadyLoad(client, c.baseUri().resolve("slow"), 10)) {
        long end = System.nanoTime() + LENGTH.toNanos();
        while (System.nanoTime() < end) {
          Thread.sleep(2_000);
          written++;
          write(
              yaml,
              written % 2 == 1
                  ? BAD[(written / 2) % BAD.length]
                  : GOOD[(written / 2) % GOOD.length]);
        }
        Thread.sleep(2_500); // the last write is read
        work.close();
        slow.close();
        System.out.printf(
            Locale.ROOT,
            "[%s] %d files in %s: /work %s; /slow %s%n",
            kind,
            written,
            LENGTH,
            work,
            slow);
        assertThat(work.failed() + slow.failed()).as("requests without an answer").isZero();
        sent = work.sent() + slow.sent();
      }
      watcher.shutdownNow();
      watcher.awaitTermination(5, TimeUnit.SECONDS);
      seeEngine.run();
      String status =
          ((org.overloadcontrol.internal.metrics.Observability)
                  c.servletContext()
                      .getAttribute(org.overloadcontrol.internal.metrics.Observability.ATTRIBUTE))
              .statusJson();
      java.util.regex.Matcher version =
          java.util.regex.Pattern.compile("\"configVersion\":(\\d+)").matcher(status);
      assertThat(version.find()).isTrue();
      long versions = Long.parseLong(version.group(1));
      System.out.printf(
          Locale.ROOT,
          "[%s] configuration version %d, engines seen %d%n",
          kind,
          versions,
          engines.size());
      assertThat(versions).as("good files put in force").isGreaterThan(written / 4);
      assertThat((long) engines.size()).as("every engine in force was seen").isEqualTo(versions);
      long counted = 0;
      for (OverloadEngine e : engines) {
        counted += ReloadIT.settled(e);
      }
      assertThat(counted).as("each request counted once, by one engine").isEqualTo(sent);
    } finally {
      watcher.shutdownNow();
    }
  }
}
