package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;

/** The limit's window log: one line that carries the window's readings, and the hand-on. */
class LimitLogTest {

  private static LimitRound round(double queueingShare, double cores, LimitRound.Held held) {
    return new LimitRound(
        "default", 1L, 100, 2.14, true, 144.0, 144.0, 143.6, 1.75, queueingShare, cores, held);
  }

  @Test
  void aLineSaysWhatTheWindowReadAndWhyItHeld() {
    assertThat(LimitLog.line(round(0.12, 0.96, LimitRound.Held.CORES_TAKEN_ELSEWHERE)))
        .isEqualTo(
            "overload-control: group 'default' limit 144.0 -> 144.0: 100 samples, p90 2.14 and"
                + " median 1.75 of target, 143.6 in flight (limit reached), queueing share 0.12,"
                + " process cores 96 %; held: cores taken elsewhere");
  }

  @Test
  void unknownReadingsAreSaidToBeUnknown() {
    assertThat(LimitLog.line(round(Double.NaN, Double.NaN, LimitRound.Held.SETTLING)))
        .contains("queueing share unknown, process cores unknown; held: settling after a cut");
    assertThat(LimitLog.line(round(0.5, 0.5, LimitRound.Held.NO))).doesNotContain("held");
    assertThat(LimitLog.line(round(0.5, 0.5, LimitRound.Held.THROUGHPUT_FLOOR)))
        .endsWith("; held: at the throughput's floor");
    assertThat(LimitLog.line(round(0.5, 0.5, LimitRound.Held.WAITING_FOR_THREADS)))
        .endsWith("; held: waiting for threads");
    assertThat(LimitLog.line(round(0.5, 0.5, LimitRound.Held.KEEPING_CORES_BUSY)))
        .endsWith("; held: keeping the cores busy");
  }

  @Test
  void everyRoundReachesTheApplicationsListenerOnce() {
    List<LimitRound> seen = new ArrayList<>();
    AdmissionListener application =
        new AdmissionListener() {
          @Override
          public void onLimitRound(LimitRound r) {
            seen.add(r);
          }
        };
    AdmissionListener logged = LimitLog.around(LimitLog.around(application));
    LimitRound r = round(0.2, 0.9, LimitRound.Held.NO);
    logged.onLimitRound(r);
    assertThat(seen).containsExactly(r);
  }
}
