package org.overloadcontrol.simulation;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

class TmpTraceTest {
  @Test
  void trace() {
    StringBuilder b = new StringBuilder();
    AdmissionListener l =
        new AdmissionListener() {
          @Override
          public void onLimitRound(LimitRound r) {
            if (r.nanos() < 1_000_000_000_000L + 20_000_000_000L)
              b.append(
                  String.format(
                      "%.2f %.2f->%.2f p90 %.2f%n",
                      (r.nanos() - 1e12) / 1e9, r.limitBefore(), r.limitAfter(), r.p90OfTarget()));
          }
        };
    SharedBottleneck sim = SharedBottleneck.shop(Variant.CONCURRENCY, 56433, Map.of(), l);
    sim.run(1, 60, 5, 0);
    System.out.println(Arrays.toString(sim.pageP90s()) + Arrays.toString(sim.pageCounts()));
    for (int i = 0; i < 8; i++)
      for (long[] x : sim.lateResponses(i))
        System.out.println(i + " late w " + x[0] / 1000000 + " e " + x[1] / 1000000);
    System.out.println(b);
  }
}
