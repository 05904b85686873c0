package org.overloadcontrol.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Prints the table of docs/controller.md: every controller, one to four servers, 1× to 10×.
 * Not part of the default run: {@code -Dtest=SharedBottleneckTableTest -Dsimulation.table=true}.
 */
@EnabledIfSystemProperty(named = "simulation.table", matches = "true")
class SharedBottleneckTableTest {

  @Test
  void printsTheTable() {
    String table = SharedBottleneck.table(new double[] {1, 2, 4, 10}, new int[] {1, 2, 4});
    System.out.println(table);
    assertThat(table).contains("| concurrency | 4 | 10× |");
  }
}
