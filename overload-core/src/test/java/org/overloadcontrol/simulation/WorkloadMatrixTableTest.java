package org.overloadcontrol.simulation;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.overloadcontrol.simulation.Workloads.Kind;
import org.overloadcontrol.simulation.Workloads.Second;

/**
 * Prints the default controller's second-by-second behaviour on the workloads beyond the shop
 * ({@link Workloads}): a cold start at 2×, a 1 s stall at 2×, steps 0.5× → 3× → 0.5×, with
 * clients that leave at a refusal and clients that retry at once. Run with {@code
 * -Dsimulation.workloads=true}.
 */
@EnabledIfSystemProperty(named = "simulation.workloads", matches = "true")
class WorkloadMatrixTableTest {

  @Test
  void printsTheMatrix() {
    for (Kind kind : Kind.values()) {
      for (boolean retry : new boolean[] {false, true}) {
        String clients = retry ? "retry at once" : "leave";
        print(
            kind,
            "cold start 2×, " + clients,
            new Workloads(kind, retry, 1, Map.of()).coldStart().offer(2, 20).drain());
        print(
            kind,
            "stall at 5 s, 2×, " + clients,
            new Workloads(kind, retry, 2, Map.of()).offer(2, 5).stallAfter(0).offer(2, 10).drain());
        print(
            kind,
            "steps 0.5/1/3/0.5×, " + clients,
            new Workloads(kind, retry, 3, Map.of())
                .offer(0.5, 10)
                .offer(1, 10)
                .offer(3, 10)
                .offer(0.5, 10)
                .drain());
      }
    }
  }

  private static void print(Kind kind, String event, Workloads w) {
    System.out.printf(
        Locale.ROOT,
        "%n%s, %s (capacity %.0f/s, target %d ms)%n",
        kind,
        event,
        kind.capacity(),
        kind.targetMillis);
    System.out.println(
        "s | arrived | completed | within target | refused | client p90 ms | min limit | Little need");
    List<Second> seconds = w.seconds();
    for (Second s : seconds) {
      System.out.printf(
          Locale.ROOT,
          "%d | %d | %d | %.2f | %d | %.0f | %.0f | %.0f%n",
          s.at(),
          s.arrived(),
          s.completed(),
          s.withinTarget() / kind.capacity(),
          s.refused(),
          s.clientP90Millis(),
          s.limit(),
          s.littleNeed() / 2);
    }
  }
}
