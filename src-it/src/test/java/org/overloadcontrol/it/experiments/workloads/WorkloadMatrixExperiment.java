package org.overloadcontrol.it.experiments.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * Issue 32's workload matrix: workloads (a)–(c) ({@link Workload}) each in the container a
 * user would put it in, under every guard ({@link Guard}), through a cold start at 2×, a 1 s
 * stall at 2×, and steps of 0.5×, 1×, 3×, 0.5× ({@link Event}), with clients that retry at once
 * or honour {@code Retry-After} ({@link ClientKind}). Every run is a fresh server JVM whose load
 * begins the moment it serves; the capacity C every multiple refers to is measured first, in a
 * fresh JVM with no guard, after a warm-up. Workload (d), the shop, is the sweep's and the
 * spike's (docs/results.md §7 and §3).
 *
 * <p>Selection (comma-separated; defaults in brackets): {@code -Dexperiment.workloads}
 * [a-war,b,c; also a-war-slow], {@code -Dexperiment.containers} [each workload's own], {@code
 * -Dexperiment.events} [cold,stall,steps], {@code -Dexperiment.clients}
 * [retry-now,retry-after; also once], {@code -Dexperiment.variants} [every guard], {@code
 * -Dexperiment.seconds} (cold start and stall) [20], {@code -Dexperiment.stepSeconds} [8],
 * {@code -Dexperiment.cores} [none]: the cores the server runs on (a Linux CPU list, e.g. {@code
 * 1}), the client and this JVM then taking the others, as if the clients ran on other machines
 * (on one machine a retry storm otherwise costs the server the clients' cores too), {@code
 * -Dexperiment.warmUp} [0]: requests each server sends itself before it serves (a warm-up
 * behind a readiness check), {@code -Dexperiment.serverJvmArgs} [none]: options added to every
 * server JVM, space-separated, {@code {run}} replaced by the run's name (a flight recording or
 * a GC log per run; {@code -Dexperiment.blockingWaits=true} declares our filter without async
 * support, so that a request waits for its permit on its thread), {@code
 * -Dexperiment.tunedParams} [none]: the {@code tuned} guard's keys
 * beside the target, {@code key=value,...}, {@code -Dexperiment.repeats} [1]: runs of each cell,
 * the guards' order reversed every other run, each guard's figures then also given as median
 * (lowest–highest). Report: {@code
 * target/experiments/workload-matrix.md}, with per-second CSVs and plots beside it; each cell's
 * bars end with our filter's refusals by reason and how many of them came within 1 ms of the
 * request's arrival, from the server log's {@code rejection} column.
 */
class WorkloadMatrixExperiment {

  static final Path OUT = Path.of("target", "experiments");

  /** The client's connections to the server: enough that the server, not the client, queues. */
  private static final int CONNECTIONS = 1024;

  @Test
  void matrix() throws Exception {
    List<String> workloads = list("experiment.workloads", "a-war,b,c");
    List<String> events = list("experiment.events", "cold,stall,steps");
    List<ClientKind> clients =
        list("experiment.clients", "retry-now,retry-after").stream()
            .map(ClientKind::named)
            .toList();
    List<String> guards = list("experiment.variants", String.join(",", Guard.NAMES));
    guards.forEach(Guard::named);
    String containers = System.getProperty("experiment.containers", "").trim();
    double seconds = number("experiment.seconds", 20, 10, "a number of seconds");
    double stepSeconds = number("experiment.stepSeconds", 8, 6, "a number of seconds");
    int repeats = repeats();

    String cores = System.getProperty("experiment.cores", "").trim();
    if (!cores.isEmpty()) {
      CorePinning.pinClient(cores);
    }
    String file = System.getProperty("experiment.report", "").trim();
    MatrixReport report = new MatrixReport(OUT, file.isEmpty() ? MatrixReport.FILE : file + ".md");
    report.header(workloads, events, clients, guards, seconds, stepSeconds);
    if (!cores.isEmpty()) {
      report.note(CorePinning.describe(cores));
    }
    for (String key : workloads) {
      if (key.equals("d")) {
        report.note(
            "Workload (d), the shop: `OverloadSweepExperiment` (steps 1×–10×, every guard,"
                + " docs/results.md §7) and `LoadSpikeExperiment` (a spike, §3).");
        continue;
      }
      Workload w = Workload.named(key);
      List<ContainerKind> kinds =
          containers.isEmpty()
              ? w.containers()
              : List.of(containers.split(",")).stream()
                  .map(s -> ContainerKind.valueOf(s.trim().toUpperCase(Locale.ROOT)))
                  .toList();
      for (ContainerKind kind : kinds) {
        String base = "matrix-" + w.key() + "-" + kind.name().toLowerCase(Locale.ROOT);
        double given = givenCapacity(w.key());
        double capacity = given > 0 ? given : capacity(w, kind, base);
        report.workload(w, kind, capacity, given > 0);
        for (String e : events) {
          Event event =
              switch (e) {
                case "cold" -> Event.coldStart(seconds);
                case "stall" -> Event.stall(seconds);
                case "steps" -> Event.steps(stepSeconds);
                default ->
                    throw new IllegalArgumentException(
                        "experiment.events: 'cold', 'stall' or 'steps', was '" + e + "'");
              };
          for (ClientKind ck : clients) {
            Map<String, CellResult> cells = new LinkedHashMap<>();
            Map<String, List<CellResult>> runsByGuard = new LinkedHashMap<>();
            for (int r = 1; r <= repeats; r++) {
              // Every other round in the reverse order, so that no guard always runs first
              // after the capacity run or always after the same peer.
              List<String> order = new ArrayList<>(guards);
              if (r % 2 == 0) {
                Collections.reverse(order);
              }
              for (String g : order) {
                if (!Guard.runsIn(g, kind)) {
                  continue;
                }
                String name = repeats == 1 ? g : g + "-" + r;
                String run = base + "-" + e + "-" + ck.key() + "-" + name;
                CellResult c = cell(w, kind, g, event, ck, capacity, run);
                cells.put(name, c);
                runsByGuard.computeIfAbsent(g, k -> new ArrayList<>()).add(c);
                System.out.printf(Locale.ROOT, "[matrix] %s done%n", run);
              }
            }
            report.cells(w, kind, event, ck, cells, base + "-" + e + "-" + ck.key());
            if (repeats > 1) {
              report.spread(event, runsByGuard);
            }
          }
        }
      }
    }
    report.write();
    assertThat(report.file()).exists();
  }

  /**
   * The capacity the command gives for workload {@code key} ({@code
   * -Dexperiment.capacity=b:550,c:390}), NaN when it gives none. Measured, (b)'s C read 498–797
   * a second from run to run on the same code, and every multiple with it: runs meant to compare
   * two controllers fix it.
   */
  private static double givenCapacity(String key) {
    for (String pair : list("experiment.capacity", "")) {
      String[] kv = pair.split(":");
      if (kv.length != 2) {
        throw new IllegalArgumentException(
            "experiment.capacity: workload:perSecond pairs, was '" + pair + "'");
      }
      if (kv[0].trim().equals(key)) {
        return Double.parseDouble(kv[1].trim());
      }
    }
    return Double.NaN;
  }

  /**
   * The no-guard capacity in a fresh JVM: 5 s at the nominal capacity (warm-up), then 5 s at
   * 1.5× it; the 200s completed per second from 6 s to 10 s. Saturated, so the server's rate,
   * whatever the machine gives it.
   */
  private static double capacity(Workload w, ContainerKind kind, String base) throws Exception {
    Event warm =
        new Event(
            "capacity", List.of(new Event.Step(0, 5, 1), new Event.Step(5, 5, 1.5)), Double.NaN);
    try (MatrixClient client = new MatrixClient(CONNECTIONS);
        ServerProcess server = ServerProcess.start(w, "none", kind, OUT, base + "-capacity")) {
      MatrixClient.Run r =
          client.run(server.target(), warm, w.nominalPerSecond(), ClientKind.ONCE, 7, () -> {});
      ServerProcess.Logs logs = server.stop();
      CellResult c =
          CellResult.of(
              warm,
              w.nominalPerSecond(),
              w.target().toNanos() / 1e9,
              r.startNanos(),
              r.attempts(),
              logs.requests(),
              logs.limits(),
              r.sendLagMaxMicros(),
              r.unanswered());
      double capacity = c.throughput(6, 10) * w.nominalPerSecond();
      System.out.printf(
          Locale.ROOT,
          "[matrix] %s: capacity %.0f/s (nominal %.0f/s)%n",
          base,
          capacity,
          w.nominalPerSecond());
      return capacity;
    }
  }

  private static CellResult cell(
      Workload w,
      ContainerKind kind,
      String guard,
      Event event,
      ClientKind ck,
      double capacity,
      String run)
      throws Exception {
    try (MatrixClient client = new MatrixClient(CONNECTIONS);
        ServerProcess server = ServerProcess.start(w, guard, kind, OUT, run)) {
      MatrixClient.Run r =
          client.run(
              server.target(),
              event,
              capacity,
              ck,
              42,
              () -> {
                try {
                  server.stall(Event.STALL_MILLIS);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      ServerProcess.Logs logs = server.stop();
      return CellResult.of(
          event,
          capacity,
          w.target().toNanos() / 1e9,
          r.startNanos(),
          r.attempts(),
          logs.requests(),
          logs.limits(),
          r.sendLagMaxMicros(),
          r.unanswered());
    }
  }

  /**
   * How many times each cell runs ({@code -Dexperiment.repeats}, default 1): a cold start or a
   * stall under re-sent attempts has read anywhere from 0.00 to 0.85 of C on the same code, so a
   * change is read on the median and range of several runs of each guard.
   */
  private static int repeats() {
    double n = number("experiment.repeats", 1, 1, "a whole number");
    if (n != Math.rint(n)) {
      throw new IllegalArgumentException(
          "experiment.repeats: a whole number ≥ 1, was '"
              + System.getProperty("experiment.repeats")
              + "'");
    }
    return (int) n;
  }

  private static String fmtLeast(double least) {
    return least == Math.rint(least) ? Long.toString((long) least) : Double.toString(least);
  }

  private static List<String> list(String key, String fallback) {
    String v = System.getProperty(key, "").trim();
    List<String> out = new ArrayList<>();
    for (String s : (v.isEmpty() ? fallback : v).split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /** {@code key}'s value, at least {@code least}; {@code what} names it in the message. */
  private static double number(String key, double fallback, double least, String what) {
    String v = System.getProperty(key, "").trim();
    if (v.isEmpty()) {
      return fallback;
    }
    try {
      double d = Double.parseDouble(v);
      if (d >= least) {
        return d;
      }
    } catch (NumberFormatException e) {
      // Falls through to the message.
    }
    throw new IllegalArgumentException(
        key + ": " + what + " ≥ " + fmtLeast(least) + ", was '" + v + "'");
  }
}
