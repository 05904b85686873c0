package org.overloadcontrol.it.experiments.workloads;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the machine's cores between the server and its clients ({@code -Dexperiment.cores}),
 * with Linux's {@code taskset}: the server JVM on the cores named, this JVM (the client) on the
 * others. On one machine the clients' work is the server's loss: a refused request re-sent at
 * once costs the client more than the server, and with both on the same two cores a retry storm
 * starved the server's requests of the cores its own refusals left. Pinned apart, the server
 * pays only for its own work, as when the clients run on other machines.
 */
final class CorePinning {

  private static final String PROPERTY = "experiment.cores";

  private CorePinning() {}

  /** The command prefix that starts the server on the cores named, empty when none are. */
  static List<String> serverPrefix() {
    String cores = System.getProperty(PROPERTY, "").trim();
    return cores.isEmpty() ? List.of() : List.of("taskset", "-c", cores);
  }

  /** Moves every thread of this JVM to the cores not in {@code serverCores}. */
  static void pinClient(String serverCores) throws IOException, InterruptedException {
    String others = othersThan(serverCores);
    Process p =
        new ProcessBuilder(
                "taskset", "-a", "-p", "-c", others, Long.toString(ProcessHandle.current().pid()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(
          "taskset could not pin the client to cores " + others + " (util-linux): " + out);
    }
  }

  /** What the report says of the split. */
  static String describe(String serverCores) {
    return "The server ran on core(s) "
        + serverCores
        + ", the client on "
        + othersThan(serverCores)
        + " (`-Dexperiment.cores`): C is the capacity of the server's cores alone.";
  }

  private static String othersThan(String serverCores) {
    List<Integer> server = parse(serverCores);
    List<String> others = new ArrayList<>();
    for (int c = 0; c < Runtime.getRuntime().availableProcessors(); c++) {
      if (!server.contains(c)) {
        others.add(Integer.toString(c));
      }
    }
    if (others.isEmpty()) {
      throw new IllegalArgumentException(
          PROPERTY + "=" + serverCores + " leaves the client no core");
    }
    return String.join(",", others);
  }

  private static List<Integer> parse(String cores) {
    List<Integer> out = new ArrayList<>();
    for (String part : cores.split(",")) {
      String[] range = part.trim().split("-");
      int from = Integer.parseInt(range[0].trim());
      int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
      for (int c = from; c <= to; c++) {
        out.add(c);
      }
    }
    return out;
  }
}
