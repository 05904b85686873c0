package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.eclipse.jetty.jmx.MBeanContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * The handler's reload on a real Jetty server: by JMX ({@code reload()} on its MBean), by a
 * call with new keys, and by itself when its YAML file changes (checked every 2 s on the fake
 * clock); the status over HTTP follows the configuration in force.
 */
class HandlerReloadTest {

  @TempDir Path dir;
  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final MBeanServer mbeans = MBeanServerFactory.newMBeanServer();
  private Path file;
  private JettyHarness jetty;
  private OverloadHandler overload;

  @AfterEach
  void stop() {
    if (jetty != null) {
      jetty.close();
    }
  }

  /** A handler on the fake clock around an application that answers "ok". */
  private OverloadHandlerBuilder answeringOk() {
    return OverloadHandler.builder()
        .ticker(ticker)
        .scheduler(scheduler)
        .handler(
            new org.eclipse.jetty.server.Handler.Abstract() {
              @Override
              public boolean handle(
                  org.eclipse.jetty.server.Request request,
                  org.eclipse.jetty.server.Response response,
                  org.eclipse.jetty.util.Callback callback) {
                JettyHarness.answer(response, callback, "ok");
                return true;
              }
            });
  }

  private void start(String yaml) throws Exception {
    file = dir.resolve("overload.yaml");
    write(yaml);
    overload = answeringOk().put("admission.controller", "rate").configFile(file).build();
    MBeanContainer container = new MBeanContainer(mbeans);
    jetty = new JettyHarness(new OverloadStatusHandler(overload));
    jetty.server.addEventListener(container);
    jetty.server.addBean(container);
  }

  /** Writes the file with a modification time no check has seen. */
  private void write(String yaml) throws Exception {
    Files.writeString(file, yaml);
    Files.setLastModifiedTime(
        file, FileTime.fromMillis(System.currentTimeMillis() + ticker.read() / 1_000_000L));
  }

  private String status() throws Exception {
    return jetty.get("/overload/status").getContentAsString();
  }

  /** The one field's value in the status document (the default endpoint is the only one). */
  private String field(String name) throws Exception {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"" + name + "\":(\"[^\"]*\"|[^,}]+)").matcher(status());
    assertThat(m.find()).as("status field " + name).isTrue();
    return m.group(1);
  }

  private double targetSeconds() throws Exception {
    // Admitted or refused by the token bucket on the still clock: either way the endpoint is seen.
    assertThat(jetty.get("/app").getStatus()).isIn(200, 503);
    return Double.parseDouble(field("targetSeconds"));
  }

  private ObjectName mbean() throws Exception {
    Set<ObjectName> names =
        mbeans.queryNames(new ObjectName("org.overloadcontrol.jetty:type=overloadhandler,*"), null);
    assertThat(names).hasSize(1);
    return names.iterator().next();
  }

  @Test
  void jmxReloadReturnsTheNewVersionOrTheRefusalNamingTheKey() throws Exception {
    start("endpoints:\n  default:\n    target: 700ms\n");
    ObjectName name = mbean();
    assertThat(mbeans.getAttribute(name, "configVersion")).isEqualTo(1L);
    assertThat(targetSeconds()).isEqualTo(0.7);

    write("endpoints:\n  default:\n    target: 300ms\n");
    Object applied = mbeans.invoke(name, "reload", new Object[0], new String[0]);

    assertThat(applied)
        .isEqualTo("applied: version 2; changed endpoints.default.target: 700ms → 300ms");
    assertThat(mbeans.getAttribute(name, "configVersion")).isEqualTo(2L);
    assertThat(targetSeconds()).isEqualTo(0.3);
    assertThat(field("configVersion")).isEqualTo("2");

    write("endpoints:\n  default:\n    target: soon\n");
    String refused = (String) mbeans.invoke(name, "reload", new Object[0], new String[0]);

    assertThat(refused)
        .startsWith("refused (version 2 stays in force): ")
        .contains("'endpoints.default.target' = 'soon'", file.toString());
    assertThat(mbeans.getAttribute(name, "configVersion")).isEqualTo(2L);
    assertThat((String) mbeans.getAttribute(name, "lastReload")).isEqualTo(refused);
    assertThat(targetSeconds()).isEqualTo(0.3);
    assertThat(field("result")).isEqualTo("\"refused\"");
  }

  @Test
  void newKeysInPlaceOfTheBuildersAreReloadedUnderTheFile() throws Exception {
    start("classes:\n  gold:\n    rank: 9\n");
    ReloadResult result =
        overload.reload(Map.of("admission.controller", "rate", "endpoints.default.target", "2s"));
    assertThat(result.applied()).isTrue();
    assertThat(targetSeconds()).isEqualTo(2.0);
    // A later reload from the file keeps them.
    write("classes:\n  gold:\n    rank: 8\n");
    assertThat(overload.reload().changes()).containsExactly("classes.gold.rank: 9 → 8");
    assertThat(targetSeconds()).isEqualTo(2.0);
  }

  @Test
  void aChangedFileIsReloadedWithinTwoSeconds() throws Exception {
    start("endpoints:\n  default:\n    target: 700ms\n");
    write("endpoints:\n  default:\n    target: 400ms\n");
    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(overload.configVersion()).isEqualTo(2);
    assertThat(targetSeconds()).isEqualTo(0.4);
  }

  @Test
  void aStoppedHandlerHasNothingToReload() throws Exception {
    start("endpoints:\n  default:\n    target: 700ms\n");
    ObjectName name = mbean();
    jetty.close();
    jetty = null;
    assertThatThrownBy(overload::reload).isInstanceOf(IllegalStateException.class);
    assertThat(overload.configVersion()).isZero();
    assertThat(name).isNotNull();
  }

  @Test
  void aReloadThatNamesAnotherFileWatchesThatFile() throws Exception {
    Path first = dir.resolve("first.yaml");
    Path second = dir.resolve("second.yaml");
    Files.writeString(first, "endpoints:\n  default:\n    target: 700ms\n");
    Files.writeString(second, "endpoints:\n  default:\n    target: 300ms\n");
    overload =
        answeringOk()
            .put("admission.controller", "rate")
            .put("configFile", first.toString())
            .build();
    jetty = new JettyHarness(new OverloadStatusHandler(overload));
    assertThat(targetSeconds()).isEqualTo(0.7);

    assertThat(
            overload
                .reload(Map.of("admission.controller", "rate", "configFile", second.toString()))
                .applied())
        .isTrue();
    assertThat(targetSeconds()).isEqualTo(0.3);

    file = second;
    write("endpoints:\n  default:\n    target: 400ms\n");
    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(overload.configVersion()).isEqualTo(3);
    assertThat(targetSeconds()).isEqualTo(0.4);
  }
}
