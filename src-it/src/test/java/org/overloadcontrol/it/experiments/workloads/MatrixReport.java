package org.overloadcontrol.it.experiments.workloads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * The workload matrix's Markdown report: a summary of every acceptance bar per cell with every
 * guard side by side, then per workload and event the step figures of each guard; per cell a
 * CSV of its seconds and, per event and client kind, plots of goodput and of the limit against
 * Little's law's floor.
 */
final class MatrixReport {

  static final String FILE = "workload-matrix.md";

  private final Path out;
  private final String fileName;
  private final StringBuilder head = new StringBuilder();
  private final StringBuilder details = new StringBuilder();
  private final List<String> summary = new ArrayList<>();

  MatrixReport(Path out, String fileName) {
    this.out = out;
    this.fileName = fileName;
  }

  Path file() {
    return out.resolve(fileName);
  }

  void header(
      List<String> workloads,
      List<String> events,
      List<ClientKind> clients,
      List<String> guards,
      double seconds,
      double stepSeconds) {
    head.append("# Workload matrix (issue 32)\n\n")
        .append("Run at ")
        .append(Instant.now())
        .append(", load average at the start ")
        .append(loadAverage())
        .append(". Workloads ")
        .append(workloads)
        .append(", events ")
        .append(events)
        .append(", clients ")
        .append(clients.stream().map(ClientKind::key).toList())
        .append(", guards ")
        .append(guards)
        .append(
            String.format(
                Locale.ROOT,
                "; cold start and stall %.0f s at 2×, steps of %.0f s.%n%n",
                seconds,
                stepSeconds))
        .append("Every run is a fresh server JVM; the load starts the moment it serves. C is the")
        .append(" capacity measured with no guard in a fresh JVM after a 5 s warm-up. Goodput:")
        .append(" responses within the target (client-side latency) completed per second, over")
        .append(" C. Each step is measured from 5 s after its start (half the step when shorter)")
        .append(" to its end; refusals and p90s by send time. A retry counts as a request; users")
        .append(" unserved: of the users who first sent in the window, those none of whose")
        .append(" attempts got a 200.")
        .append(" Send delay: from when an attempt was due to when it went on the wire (the")
        .append(" generator's lag, its wait for one of its connections, a new connection's")
        .append(" handshake); arrival delay: to when the container began to read it (the send")
        .append(" delay plus the container's unread connections). Neither is in the server-side")
        .append(" p90.\n\n");
  }

  void note(String line) {
    details.append(line).append("\n\n");
  }

  /** Opens workload {@code w}'s section; {@code given}: C came with the command, not measured. */
  void workload(Workload w, ContainerKind kind, double capacity, boolean given) {
    details.append(
        String.format(
            Locale.ROOT,
            "## %s on %s%n%nC = %.0f/s %s (nominal %.0f/s), target %d ms.%n%n",
            w.description(),
            name(kind),
            capacity,
            given ? "given (`experiment.capacity`)" : "measured",
            w.nominalPerSecond(),
            w.target().toMillis()));
    for (String g : Guard.NAMES) {
      if (Guard.runsIn(g, kind)) {
        details.append("- `").append(g).append("`: ").append(Guard.describe(g, w)).append('\n');
      }
    }
    details.append('\n');
  }

  void cells(
      Workload w,
      ContainerKind kind,
      Event event,
      ClientKind client,
      Map<String, CellResult> cells,
      String base)
      throws IOException {
    double target = w.target().toNanos() / 1e9;
    details.append(
        String.format(Locale.ROOT, "### %s, %s clients%n%n", eventName(event), client.key()));
    details.append(
        "| guard | step × C | window s | goodput / C | 200s / C | refused % | users unserved % | no response"
            + " | client p90 ms | send delay p90 ms | arrival delay p90 ms | server p90 ms"
            + " | served after the client left | lowest limit | bars |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    Map<String, List<String>> bars = new LinkedHashMap<>();
    for (Map.Entry<String, CellResult> e : cells.entrySet()) {
      CellResult c = e.getValue();
      List<String> cellBars = new ArrayList<>();
      for (Event.Step s : event.steps()) {
        CellResult.StepFigures f = c.step(s);
        List<String> b = event.key().equals("steps") ? f.bars(target) : List.of();
        cellBars.addAll(
            b.stream().map(x -> x.replace(":", " at " + fmt1(s.multiple()) + "×:")).toList());
        details.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.0f–%.0f | %.2f | %.2f | %.1f | %.1f | %d | %s | %s | %s | %s | %d | %s | %s |%n",
                e.getKey(),
                fmt1(f.multiple()),
                f.from(),
                f.to(),
                f.goodput(),
                f.throughput(),
                100 * f.refusedShare(),
                100 * f.unservedShare(),
                f.failed(),
                CellResult.fmt(f.clientP90Seconds() * 1000, "%.0f"),
                CellResult.fmt(f.sendDelayP90Seconds() * 1000, "%.0f"),
                CellResult.fmt(f.arrivalDelayP90Seconds() * 1000, "%.0f"),
                CellResult.fmt(f.serverP90Seconds() * 1000, "%.0f"),
                f.servedAfterLeaving(),
                CellResult.fmt(f.lowestLimit(), "%.0f"),
                String.join("; ", b)));
      }
      if (event.key().equals("cold")) {
        double g = c.goodput(Event.SETTLE_SECONDS, event.seconds());
        cellBars.add(CellResult.mark(g >= CellResult.GOODPUT_BAR, "goodput ≥ 0.9 from 5 s"));
        double[] lb = c.limitBar();
        cellBars.add(
            lb == null
                ? "limit ≥ floor: – (no limit)"
                : CellResult.mark(lb[0] == lb[1], "limit ≥ floor")
                    + String.format(
                        Locale.ROOT,
                        " (%.0f of %.0f s, lowest limit/floor %s, lowest limit %s)",
                        lb[0],
                        lb[1],
                        // An infinite ratio: no second had any throughput within the target.
                        Double.isInfinite(lb[2])
                            ? "– (no goodput)"
                            : String.format(Locale.ROOT, "%.2f", lb[2]),
                        CellResult.fmt(
                            c.lowestLimit(Event.SETTLE_SECONDS, event.seconds()), "%.0f")));
      }
      if (event.stalls()) {
        cellBars.add(
            CellResult.mark(c.recovered(), "recovered within 3 s")
                + String.format(
                    Locale.ROOT,
                    " (%s s; goodput from 3 s after the stall %.2f)",
                    CellResult.fmt(c.recoverySeconds(), "%.2f"),
                    c.goodput(event.stallEndSeconds() + 3, event.seconds())));
      }
      cellBars.add(
          String.format(Locale.ROOT, "(sender lag max %d ms)", c.sendLagMaxMicros() / 1000));
      Map<String, long[]> reasons = c.refusalsByReason();
      if (!reasons.isEmpty()) {
        List<String> told = new ArrayList<>();
        reasons.forEach(
            (reason, n) ->
                told.add(String.format(Locale.ROOT, "%s %d (%d within 1 ms)", reason, n[0], n[1])));
        cellBars.add("(refused: " + String.join(", ", told) + ")");
      }
      bars.put(e.getKey(), cellBars);
      writeSeconds(c, out.resolve(base + "-" + e.getKey() + "-seconds.csv"));
    }
    details.append('\n');
    for (Map.Entry<String, List<String>> b : bars.entrySet()) {
      details
          .append("- `")
          .append(b.getKey())
          .append("`: ")
          .append(String.join("; ", b.getValue()))
          .append('\n');
      summary.add(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s |",
              w.key(),
              name(kind),
              event.key(),
              client.key(),
              b.getKey(),
              String.join("; ", b.getValue())));
    }
    details.append('\n');
    plots(cells, base, event);
    details.append(
        String.format(Locale.ROOT, "![](%s-goodput.png)%n![](%s-limit.png)%n%n", base, base));
  }

  /**
   * After the repeated runs of one event and client kind ({@code -Dexperiment.repeats}), each
   * guard's step figures as median (lowest–highest) over its runs, and for a stall the seconds
   * to recover (a cold start's bar reads its one step's goodput, which is in the table).
   */
  void spread(Event event, Map<String, List<CellResult>> runsByGuard) {
    int runs = runsByGuard.values().stream().mapToInt(List::size).max().orElse(0);
    details.append(
        String.format(
            Locale.ROOT,
            "Over %d runs of each guard (their order reversed every other run), median (lowest–highest):%n%n",
            runs));
    details.append(
        "| guard | step × C | goodput / C | refused % | users unserved % | client p90 ms"
            + " | server p90 ms | lowest limit | recovered after the stall, s |\n"
            + "|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<CellResult>> e : runsByGuard.entrySet()) {
      List<CellResult> cs = e.getValue();
      for (Event.Step s : event.steps()) {
        List<CellResult.StepFigures> f = cs.stream().map(c -> c.step(s)).toList();
        details.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                e.getKey(),
                fmt1(s.multiple()),
                spread(f, CellResult.StepFigures::goodput).format("%.2f"),
                spread(f, x -> 100 * x.refusedShare()).format("%.1f"),
                spread(f, x -> 100 * x.unservedShare()).format("%.1f"),
                spread(f, x -> 1000 * x.clientP90Seconds()).format("%.0f"),
                spread(f, x -> 1000 * x.serverP90Seconds()).format("%.0f"),
                spread(f, CellResult.StepFigures::lowestLimit).format("%.0f"),
                event.stalls()
                    ? Spread.of(cs.stream().map(CellResult::recoverySeconds).toList())
                        .format("%.2f")
                    : ""));
      }
    }
    details.append('\n');
  }

  private static Spread spread(
      List<CellResult.StepFigures> figures, ToDoubleFunction<CellResult.StepFigures> figure) {
    return Spread.of(figures.stream().map(figure::applyAsDouble).toList());
  }

  private void plots(Map<String, CellResult> cells, String base, Event event) throws IOException {
    List<Charts.Line> goodput = new ArrayList<>();
    List<Charts.Line> limit = new ArrayList<>();
    for (Map.Entry<String, CellResult> e : cells.entrySet()) {
      CellResult c = e.getValue();
      List<Double> xs = new ArrayList<>();
      List<Double> g = new ArrayList<>();
      List<Double> l = new ArrayList<>();
      List<Double> floor = new ArrayList<>();
      for (double s = 0; s + 1 <= event.seconds(); s += 0.5) {
        xs.add(s + 0.5);
        g.add(c.goodput(s, s + 1));
        l.add(c.lowestLimit(s, s + 1));
        floor.add(c.limitFloor(s, s + 1));
      }
      goodput.add(new Charts.Line(e.getKey(), xs, g));
      if (l.stream().anyMatch(v -> !v.isNaN())) {
        limit.add(new Charts.Line(e.getKey() + " limit", xs, l));
        limit.add(new Charts.Line(e.getKey() + " floor", xs, floor));
      }
    }
    Charts.lines(
        out.resolve(base + "-goodput.png"),
        base + ": goodput (1 s windows)",
        "seconds",
        "responses within target / s over C",
        goodput,
        false);
    Charts.lines(
        out.resolve(base + "-limit.png"),
        base
            + ": lowest limit per 1 s and Little's law floor (throughput within target × target / 2)",
        "seconds",
        "concurrency",
        limit,
        false);
  }

  private static void writeSeconds(CellResult c, Path file) throws IOException {
    StringBuilder csv =
        new StringBuilder(
            "second,offered_multiple,goodput_over_c,throughput_over_c,refused_share,"
                + "client_p90_ms,server_p90_ms,lowest_limit,limit_floor,send_delay_p90_ms,"
                + "arrival_delay_p90_ms\n");
    for (double s = 0; s + 1 <= c.event().seconds(); s++) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%.0f,%.2f,%.3f,%.3f,%.4f,%.1f,%.1f,%s,%.1f,%.1f,%.1f%n",
              s,
              c.event().multipleAt(s),
              c.goodput(s, s + 1),
              c.throughput(s, s + 1),
              c.refusedShare(s, s + 1),
              c.clientP90(s, s + 1) * 1000,
              c.serverP90(s, s + 1) * 1000,
              CellResult.fmt(c.lowestLimit(s, s + 1), "%.0f"),
              c.limitFloor(s, s + 1),
              c.sendDelayP90(s, s + 1) * 1000,
              c.arrivalDelayP90(s, s + 1) * 1000));
    }
    Files.writeString(file, csv);
  }

  void write() throws IOException {
    StringBuilder all = new StringBuilder(head);
    all.append("## The bars, every guard per cell\n\n")
        .append(
            "| workload | container | event | clients | guard | bars |\n|---|---|---|---|---|---|\n");
    summary.forEach(s -> all.append(s).append('\n'));
    all.append('\n').append(details);
    Files.createDirectories(out);
    Files.writeString(file(), all);
  }

  private static String eventName(Event e) {
    return switch (e.key()) {
      case "cold" -> "cold start at 2×";
      case "stall" ->
          String.format(Locale.ROOT, "a 1 s stall at %.0f s, at 2×", e.stallAtSeconds());
      default -> "steps 0.5× → 1× → 3× → 0.5×";
    };
  }

  private static String name(ContainerKind kind) {
    return kind == ContainerKind.JETTY ? "Jetty" : "Tomcat";
  }

  private static String fmt1(double v) {
    return v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
