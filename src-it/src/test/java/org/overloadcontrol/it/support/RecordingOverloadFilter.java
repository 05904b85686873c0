package org.overloadcontrol.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * {@link OverloadFilter} with a listener that keeps every controller round, so an integration
 * test can print how the controller moved. The container creates the filter, hence the static
 * store: one test at a time uses it (failsafe runs the tests of a JVM one after another).
 */
public class RecordingOverloadFilter extends OverloadFilter {

  private static final ConcurrentLinkedQueue<ControllerRound> ROUNDS =
      new ConcurrentLinkedQueue<>();

  public RecordingOverloadFilter() {
    super(
        Ticker.system(),
        new AdmissionListener() {
          @Override
          public void onRound(ControllerRound round) {
            ROUNDS.add(round);
          }
        });
  }

  /** Forgets the rounds of earlier runs. */
  public static void clear() {
    ROUNDS.clear();
  }

  /** The rounds since the last {@link #clear}, oldest first. */
  public static List<ControllerRound> rounds() {
    return new ArrayList<>(ROUNDS);
  }

  /** One line per round: seconds since the first, samples, sample p90, estimate, rate. */
  public static String trace() {
    List<ControllerRound> rounds = rounds();
    if (rounds.isEmpty()) {
      return "  (no controller rounds)\n";
    }
    long t0 = rounds.get(0).nowNanos();
    StringBuilder b = new StringBuilder();
    for (ControllerRound r : rounds) {
      b.append(
          String.format(
              Locale.ROOT,
              "  t=%5.1fs n=%4d samp=%6.0fms cur=%6.0fms rate %6.1f -> %6.1f/s %s%n",
              (r.nowNanos() - t0) / 1e9,
              r.sampleCount(),
              r.sampleP90Nanos() / 1e6,
              r.estimateNanos() / 1e6,
              r.rateBefore(),
              r.rateAfter(),
              r.action()));
    }
    return b.toString();
  }
}
