package org.overloadcontrol.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import one.profiler.AsyncProfiler;
import one.profiler.Counter;

/**
 * The profiling mode of {@link EndToEndOverhead} ({@code -De2e.profile=true}): samples the
 * server JVM's CPU with async-profiler during the measured rounds and charges each sample to
 * the variant whose thread pool ran it. A sample is the filter's own work when its stack is
 * under the filter's {@code doFilter} but not under the rest of the chain (the servlet).
 *
 * <p>Throughput and even CPU time per request move by more than the filter costs on a shared
 * 2-core machine; the sampled CPU time of the filter's own frames per request does not, so a
 * change to the hot path can be judged by it (the profiler adds its own cost to every
 * variant alike).
 */
final class E2eProfile {

  /** CPU sampling interval. */
  static final long INTERVAL_NANOS = 100_000;

  private static final Pattern THREAD = Pattern.compile("^\\[(.+)-\\d+ tid=\\d+\\]$");

  /** Frames of the rest of the chain, below the filter: not the filter's own cost. */
  private static final List<String> CHAIN = List.of("ServletHandler$Chain", "ServletHolder");

  private static final String PROJECT = "org/overloadcontrol/";

  private final AsyncProfiler profiler;

  private E2eProfile(AsyncProfiler profiler) {
    this.profiler = profiler;
  }

  static E2eProfile start() throws IOException {
    AsyncProfiler profiler = AsyncProfiler.getInstance();
    profiler.execute("start,event=cpu,interval=" + INTERVAL_NANOS + ",threads");
    return new E2eProfile(profiler);
  }

  /**
   * Stops sampling and writes {@code profile.collapsed} (the raw stacks) and
   * {@code profile.md} (per variant: sampled CPU per request, the filter's share, and where
   * the filter's share goes) into {@code out}.
   *
   * @param pools the thread-pool name of each variant
   * @param requests the requests wrk counted for each variant while sampling
   */
  String stop(Map<String, String> pools, Map<String, Long> requests, Path out) throws IOException {
    profiler.stop();
    String collapsed = profiler.dumpCollapsed(Counter.SAMPLES);
    Files.writeString(out.resolve("profile.collapsed"), collapsed);
    Map<String, String> variantByPool = new LinkedHashMap<>();
    pools.forEach((variant, pool) -> variantByPool.put(pool, variant));
    Map<String, Long> all = new LinkedHashMap<>();
    Map<String, Long> own = new LinkedHashMap<>();
    Map<String, Map<String, Long>> callees = new LinkedHashMap<>();
    for (String line : collapsed.split("\n")) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      long samples = Long.parseLong(line.substring(space + 1).trim());
      String[] frames = line.substring(0, space).split(";");
      Matcher m = THREAD.matcher(frames[0]);
      String variant = m.matches() ? variantByPool.get(m.group(1)) : null;
      if (variant == null) {
        continue;
      }
      all.merge(variant, samples, Long::sum);
      String callee = filterCallee(frames);
      if (callee != null) {
        own.merge(variant, samples, Long::sum);
        callees
            .computeIfAbsent(variant, v -> new LinkedHashMap<>())
            .merge(callee, samples, Long::sum);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "Sampled CPU (async-profiler, every %d µs of CPU) over"
                + " the measured rounds, per request wrk counted.%n%n",
            INTERVAL_NANOS / 1000));
    sb.append(
        "| variant | requests | server CPU µs/req (sampled) | filter's own µs/req |\n"
            + "|---|---:|---:|---:|\n");
    for (String v : pools.keySet()) {
      long n = Math.max(1L, requests.getOrDefault(v, 0L));
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.3f | %.3f |%n",
              v,
              n,
              micros(all.getOrDefault(v, 0L), n),
              micros(own.getOrDefault(v, 0L), n)));
    }
    for (Map.Entry<String, Map<String, Long>> e : callees.entrySet()) {
      long n = Math.max(1L, requests.getOrDefault(e.getKey(), 0L));
      sb.append(
          String.format(
              Locale.ROOT,
              "%nWhere the filter's own time goes, %s"
                  + " (µs/req; the frame the filter's code called, or \"(own code)\"):%n%n"
                  + "| callee | µs/req |%n|---|---:|%n",
              e.getKey()));
      e.getValue().entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
          .limit(15)
          .forEach(
              c ->
                  sb.append(
                      String.format(
                          Locale.ROOT, "| %s | %.3f |%n", c.getKey(), micros(c.getValue(), n))));
    }
    Files.writeString(out.resolve("profile.md"), sb);
    return sb.toString();
  }

  private static double micros(long samples, long requests) {
    return samples * (INTERVAL_NANOS / 1e3) / requests;
  }

  /**
   * For a stack in a filter's own code, the first frame outside the project (or outside the
   * filter class, for Jetty's filter) that the filter's code called, named after its caller;
   * null for a stack that is not the filter's own work.
   */
  static String filterCallee(String[] frames) {
    int filter = -1;
    for (int i = 0; i < frames.length; i++) {
      if (frames[i].endsWith("Filter.doFilter")
          && (frames[i].startsWith(PROJECT)
              || frames[i].startsWith("org/eclipse/jetty/ee10/servlets/"))) {
        filter = i;
        break;
      }
    }
    if (filter < 0) {
      return null;
    }
    for (int i = filter + 1; i < frames.length; i++) {
      for (String marker : CHAIN) {
        if (frames[i].contains(marker)) {
          return null;
        }
      }
    }
    String owner = frames[filter].substring(0, frames[filter].lastIndexOf('/') + 1);
    String prefix = owner.startsWith(PROJECT) ? PROJECT : owner;
    for (int i = filter + 1; i < frames.length; i++) {
      if (!frames[i].startsWith(prefix)) {
        return simple(frames[i - 1]) + " → " + simple(frames[i]);
      }
    }
    return simple(frames[frames.length - 1]) + " (own code)";
  }

  private static String simple(String frame) {
    return frame.substring(frame.lastIndexOf('/') + 1);
  }
}
