package org.overloadcontrol.it.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Outcome;
import org.overloadcontrol.it.load.RunRecorder;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.serverlog.ServedRequest;
import org.overloadcontrol.it.support.ContainerHooks;

/** The peer experiments' figures of a window, from a made-up log and run. */
class GuardedRunTest {

  private static final long S = 1_000_000_000L;
  private static final long MS = 1_000_000L;
  private static final long T0 = 5_000 * S;

  private static ServedRequest page(
      double atSeconds, long responseMs, String path, int status, boolean userLeft) {
    long arrival = T0 + Math.round(atSeconds * S);
    long done = arrival + responseMs * MS;
    return new ServedRequest(
        arrival, done, path, status, false, userLeft ? done - 1 : ServedRequest.NO_DEADLINE);
  }

  @Test
  void aWindowCountsUsefulDatabaseTimeOrdersAndEachPagesP90AgainstItsTarget() {
    List<ServedRequest> log = new ArrayList<>();
    // 10 s to 20 s: 100 home pages (200 ms × 0.1 = 20 ms of database each) served in
    // 10-100 ms, 10 payments (50 ms each) served in 500 ms, 3 of them after their user left,
    // 50 refusals.
    for (int i = 0; i < 100; i++) {
      log.add(page(10 + i * 0.1, 10 + i * 10 % 100, "/shop/", 200, false));
    }
    for (int i = 0; i < 10; i++) {
      log.add(page(10.5 + i, 500, "/shop/payment", 200, i < 3));
    }
    for (int i = 0; i < 50; i++) {
      log.add(page(10 + i * 0.2, 1, "/shop/browse", 429, false));
    }
    log.add(page(12, 1, "/shop/images/3.jpg", 200, false));
    // Outside the window.
    log.add(page(9.9, 9_000, "/shop/", 200, false));
    RunRecorder recorder = new RunRecorder(T0, Duration.ofSeconds(1));
    recorder.ended(ShopRequest.CONFIRM, null, Outcome.COMPLETED, MS, T0 + 12 * S);
    recorder.purchaseWithoutRefusal(T0 + 12 * S);
    recorder.purchaseWithoutRefusal(T0 + 15 * S);
    recorder.purchaseWithoutRefusal(T0 + 25 * S);
    RunResult run = recorder.snapshot(Duration.ofSeconds(30));
    Variant none = new Variant("none", "", "", h -> h);

    GuardedRun.Window w = new GuardedRun(none, run, log, T0, 0.1, 1).window(10, 20);

    // (100 × 20 ms + 7 × 50 ms) / (10 s × 1 connection)
    assertThat(w.goodputOverCapacity()).isCloseTo(0.235, within(1e-9));
    assertThat(w.pagesPerSecond()).isCloseTo(10.7, within(1e-9));
    // Buckets ending in (10, 20]: the purchases at 12 s and 15 s.
    assertThat(w.ordersPerMinute()).isCloseTo(12.0, within(1e-9));
    assertThat(w.refusedShare()).isCloseTo(50.0 / 160, within(1e-9));
    assertThat(w.all().userLeft()).isEqualTo(3);
    // Home: target 200 ms, p90 of 10..100 ms ≈ 90 ms; payment: 150 ms, p90 500 ms.
    assertThat(w.p90OverTarget(ShopRequest.HOME)).isCloseTo(0.45, within(0.01));
    assertThat(w.p90OverTarget(ShopRequest.PAYMENT)).isCloseTo(500 / 150.0, within(0.01));
    assertThat(w.p90OverTarget(ShopRequest.BROWSE)).isNaN();
    assertThat(w.worstPage()).isEqualTo("payment");
    assertThat(w.pagesWithinBound()).containsExactly(1, 2);
    assertThat(w.pages()).doesNotContainKey(ShopRequest.CART);
  }

  @Test
  void ordersPlacedAreConfirmsAnsweredOkToAUserStillThere() {
    List<ServedRequest> log = new ArrayList<>();
    log.add(page(1, 10, "/shop/confirm", 200, false));
    log.add(page(70, 10, "/shop/confirm", 200, false));
    // After a refused checkout step, for a user who had left, refused, a waiting room.
    log.add(page(2, 10, "/shop/confirm", 409, false));
    log.add(page(3, 10, "/shop/confirm", 200, true));
    log.add(page(4, 10, "/shop/confirm", 503, false));
    log.add(page(5, 10, "/shop/confirm", 303, false));
    log.add(page(6, 10, "/shop/payment", 200, false));
    Variant none = new Variant("none", "", "", h -> h);
    RunResult run = new RunRecorder(T0, Duration.ofSeconds(1)).snapshot(Duration.ofSeconds(80));

    assertThat(new GuardedRun(none, run, log, T0, 0.1, 1).ordersPlaced()).isEqualTo(2);
  }

  @Test
  void everyVariantHasItsOwnNameAndOurFiltersAreOffForThePeers() {
    List<Variant> all = Variant.all(0.1, 1);
    assertThat(all)
        .extracting(Variant::name)
        .doesNotHaveDuplicates()
        .containsExactly(
            "none",
            "shipped",
            "no-sessions",
            "default",
            "idle-headroom",
            "rate",
            "paper",
            "qos",
            "ncl-vegas",
            "ncl-vegas-noprobe",
            "ncl-gradient2");
    for (Variant v : all) {
      boolean peer =
          v.name().equals("none") || v.name().equals("qos") || v.name().startsWith("ncl");
      // Our filter off is a top-level key; a section's own `enabled: false` is not that.
      assertThat(v.overloadYaml().lines().anyMatch("enabled: false"::equals))
          .as(v.name())
          .isEqualTo(peer);
      ContainerHooks h = v.guard().apply(ContainerHooks.NONE);
      assertThat(h.jettyWrapper() != null).as(v.name()).isEqualTo(v.name().equals("qos"));
      assertThat(h.initializers()).as(v.name()).hasSize(v.name().startsWith("ncl") ? 1 : 0);
    }
    assertThat(Variant.target(ShopRequest.SEARCH, 0.1)).isEqualTo(Duration.ofMillis(200));
    assertThat(Variant.target(ShopRequest.CONFIRM, 0.1)).isEqualTo(Duration.ofMillis(150));
    assertThat(Variant.target(ShopRequest.CART, 0.1)).isNull();
  }
}
