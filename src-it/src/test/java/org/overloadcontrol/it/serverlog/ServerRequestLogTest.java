package org.overloadcontrol.it.serverlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerRequestLogTest {

  private static final long MS = 1_000_000L;
  private static final long NONE = ServedRequest.NO_DEADLINE;

  private static ServedRequest req(
      long arrivalMs, long responseMs, String path, int status, boolean failed, long givesUpMs) {
    return new ServedRequest(
        arrivalMs * MS,
        (arrivalMs + responseMs) * MS,
        path,
        status,
        failed,
        givesUpMs == NONE ? NONE : givesUpMs * MS);
  }

  @Test
  void csvRoundTripKeepsEveryField(@TempDir Path dir) throws Exception {
    List<ServedRequest> log =
        List.of(
            req(-5, 20, "/shop/browse", 200, false, 1000),
            req(10, 1, "/shop/a,b", 503, false, NONE),
            req(11, 900, "/shop/confirm", 200, true, 400),
            new ServedRequest(12 * MS, 40 * MS, "/shop/payment", 200, false, NONE, 7 * MS, null),
            new ServedRequest(13 * MS, 14 * MS, "/shop/home", 503, false, NONE, 0, "queue-full"));
    Path file = dir.resolve("x").resolve("log.csv");

    ServerRequestLog.writeCsv(file, log);

    assertThat(ServerRequestLog.readCsv(Files.readAllLines(file)))
        .containsExactly(
            log.get(0),
            req(10, 1, "/shop/a%2Cb", 503, false, NONE),
            log.get(2),
            log.get(3),
            log.get(4));
  }

  @Test
  void readCsvRejectsWhatItDidNotWrite() {
    assertThatThrownBy(() -> ServerRequestLog.readCsv(List.of("a,b")))
        .hasMessageContaining("not a server request log");
    assertThatThrownBy(
            () ->
                ServerRequestLog.readCsv(
                    List.of(
                        "arrival_ns,completion_ns,path,status,failed,gives_up_ns,waited_ns,rejection",
                        "1,2,/x,200")))
        .hasMessageContaining("line 2: expected 8 fields, got 4");
  }

  @Test
  void aUserLeftWhenTheResponseFailedOrCameAfterItsDeadline() {
    assertThat(req(0, 100, "/p", 200, false, 100).userLeft()).isFalse();
    assertThat(req(0, 100, "/p", 200, false, 99).userLeft()).isTrue();
    assertThat(req(0, 100, "/p", 200, false, NONE).userLeft()).isFalse();
    assertThat(req(0, 1, "/p", 200, true, NONE).userLeft()).isTrue();
    // nanoTime may be negative: the comparison must not overflow or treat it as "none".
    assertThat(
            new ServedRequest(
                    Long.MAX_VALUE - 10, Long.MIN_VALUE + 10, "/p", 200, false, Long.MAX_VALUE)
                .userLeft())
        .isTrue();
  }

  @Test
  void byPageCountsOnlyArrivalsInTheWindowAndTimesServedRequestsLeftUsersIncluded() {
    List<ServedRequest> log = new ArrayList<>();
    // Before the window: ignored, however slow.
    log.add(req(999, 5000, "/shop/browse", 200, false, NONE));
    // In [1000, 2000): browse served 1..100 ms, one of them after its user left.
    for (int i = 1; i <= 100; i++) {
      log.add(req(1000 + i, i, "/shop/browse", 200, false, i == 100 ? 1000 + i + 50 : NONE));
    }
    log.add(req(1500, 1, "/shop/browse", 503, false, NONE));
    log.add(req(1500, 2, "/shop/", 429, false, NONE));
    log.add(req(1600, 30, "/shop/confirm", 409, false, NONE));
    log.add(req(1700, 10, "/shop/shop.css", 200, false, NONE));
    // At the window's end: excluded.
    log.add(req(2000, 1, "/shop/browse", 200, false, NONE));

    Map<String, PageStats> pages =
        PageStats.byPage(
            log,
            p -> p.endsWith(".css") ? null : p.substring(p.lastIndexOf('/') + 1),
            1000 * MS,
            2000 * MS);

    assertThat(pages.keySet()).containsExactly("", "browse", "confirm", "all");
    PageStats browse = pages.get("browse");
    assertThat(browse.requests()).isEqualTo(101);
    assertThat(browse.served()).isEqualTo(100);
    assertThat(browse.refused()).isEqualTo(1);
    assertThat(browse.userLeft()).isEqualTo(1);
    assertThat(browse.servedToPresent()).isEqualTo(99);
    assertThat(browse.percentileMillis(50)).isCloseTo(50, org.assertj.core.data.Offset.offset(0.1));
    assertThat(browse.percentileMillis(90)).isCloseTo(90, org.assertj.core.data.Offset.offset(0.1));
    assertThat(browse.percentileMillis(99)).isCloseTo(99, org.assertj.core.data.Offset.offset(0.1));
    assertThat(pages.get("").refused()).isEqualTo(1);
    assertThat(pages.get("").percentileMillis(90)).isNaN();
    assertThat(pages.get("confirm").other()).isEqualTo(1);
    PageStats all = pages.get("all");
    assertThat(all.requests()).isEqualTo(103);
    assertThat(all.served()).isEqualTo(100);
    assertThat(all.refused()).isEqualTo(2);
    assertThat(all.other()).isEqualTo(1);
  }
}
