package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * The filter's reload: every layer read again as at start, put in force between requests when
 * valid, refused with the start's message when not, and done by itself when its YAML file on
 * disk changes (checked every 2 s on the fake clock).
 */
class FilterReloadTest {

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler timers = new FakeScheduler(harness.ticker);
  private OverloadFilter filter;

  private OverloadFilter start() throws Exception {
    filter = new OverloadFilter(harness.ticker, harness.wallClock, AdmissionListener.NONE, timers);
    filter.init(harness.filterConfig());
    return filter;
  }

  @AfterEach
  void stop() {
    if (filter != null) {
      filter.destroy();
    }
  }

  private Duration target() throws Exception {
    AtomicReference<OverloadContext> seen = new AtomicReference<>();
    filter.doFilter(
        new FilterHarness.Req().build(),
        new FilterHarness.Res().mock,
        (rq, rs) -> seen.set(Overload.context(rq).orElseThrow()));
    return seen.get().target().orElseThrow();
  }

  @Test
  void aChangedYamlIsPutInForceAndTheEngineStatusAndMetricsFollow() throws Exception {
    harness.yaml = "endpoints:\n  s:\n    target: 700ms\n";
    start();
    OverloadEngine before = filter.runtime().engine();
    assertThat(target()).isEqualTo(Duration.ofMillis(700));

    harness.yaml = "endpoints:\n  s:\n    target: 300ms\n";
    ReloadResult result = filter.reload();

    assertThat(result.applied()).isTrue();
    assertThat(result.version()).isEqualTo(2);
    assertThat(result.changes()).containsExactly("endpoints.s.target: 700ms → 300ms");
    assertThat(filter.configVersion()).isEqualTo(2);
    assertThat(target()).isEqualTo(Duration.ofMillis(300));
    assertThat(filter.runtime().engine()).isNotSameAs(before);
    assertThat(harness.contextAttributes.get(OverloadRuntime.ATTRIBUTE)).isSameAs(filter.runtime());
    Observability o = (Observability) harness.contextAttributes.get(Observability.ATTRIBUTE);
    assertThat(o.engine()).isSameAs(filter.runtime().engine());
    var status = new ObjectMapper().readTree(o.statusJson());
    assertThat(status.get("configVersion").asLong()).isEqualTo(2);
    assertThat(status.get("lastReload").get("result").asText()).isEqualTo("applied");
  }

  @Test
  void aBadYamlIsRefusedWithTheMessageOfAStartAndTheRunningSettingsStay() throws Exception {
    harness.yaml = "endpoints:\n  s:\n    target: 700ms\n";
    start();
    OverloadEngine before = filter.runtime().engine();

    harness.yaml = "endpoints:\n  s:\n    target: soon\n";
    ReloadResult result = filter.reload();

    assertThat(result.applied()).isFalse();
    assertThat(result.version()).isEqualTo(1);
    assertThat(result.message()).contains("'endpoints.s.target' = 'soon'", "overload.yaml");
    assertThatThrownBy(this::start).hasMessage(result.message());
    filter = null; // the refused start left nothing running
    assertThat(before).isNotNull();
  }

  @Test
  void theOldSettingsStillAdmitAfterARefusal() throws Exception {
    harness.yaml = "endpoints:\n  s:\n    target: 700ms\n";
    start();
    OverloadEngine before = filter.runtime().engine();
    harness.yaml = "endpoints:\n  s:\n    target: soon\n";
    filter.reload();
    assertThat(filter.runtime().engine()).isSameAs(before);
    assertThat(target()).isEqualTo(Duration.ofMillis(700));
    assertThat(filter.configVersion()).isEqualTo(1);
  }

  @Test
  void aChangeToTheFileOnDiskIsReloadedAtTheNextCheck(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("overload.yaml");
    Files.writeString(file, "endpoints:\n  s:\n    target: 700ms\n");
    harness.initParams.put("configFile", file.toString());
    start();

    Files.writeString(file, "endpoints:\n  s:\n    target: 250ms\n");
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    harness.ticker.advance(Duration.ofMillis(1999));
    timers.runDue();
    assertThat(filter.configVersion()).isEqualTo(1);
    harness.ticker.advance(Duration.ofMillis(1));
    timers.runDue();

    assertThat(filter.configVersion()).isEqualTo(2);
    assertThat(target()).isEqualTo(Duration.ofMillis(250));
    // Unchanged since: the next checks reload nothing.
    harness.ticker.advance(Duration.ofSeconds(10));
    timers.runDue();
    assertThat(filter.configVersion()).isEqualTo(2);
  }
}
