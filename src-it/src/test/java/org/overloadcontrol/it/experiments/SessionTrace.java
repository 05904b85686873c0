package org.overloadcontrol.it.experiments;

import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.serverlog.ServedRequest;

/**
 * A diagnostic trace of session-aware admission during one run ({@code -Dexperiment.trace=true}):
 * every 100 ms the engine's concurrency limit L, its requests in flight, the requests waiting,
 * whether the door is shut by an overdue admitted request, the admit-new-sessions rule's
 * estimate (active sessions × their rate over the group's capacity), and the gate's counters;
 * written per second beside the server log's pages served and orders placed. The engine lives
 * in the WAR's class loader, so it is read by reflection, its package-private estimates
 * included: a tool to look with, not an API.
 */
final class SessionTrace {

  private static final long PERIOD_MILLIS = 100;

  private final ServletContext context;
  private final long startNanos;
  private final List<double[]> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private boolean failed;

  private SessionTrace(ServletContext context, long startNanos) {
    this.context = context;
    this.startNanos = startNanos;
    this.thread = new Thread(this::loop, "session-trace");
    this.thread.setDaemon(true);
  }

  /** Starts tracing when {@code -Dexperiment.trace=true}, else returns null. */
  static SessionTrace startIfAsked(ServletContext context, long startNanos) {
    if (!Boolean.getBoolean("experiment.trace")) {
      return null;
    }
    SessionTrace t = new SessionTrace(context, startNanos);
    t.thread.start();
    return t;
  }

  private void loop() {
    while (running) {
      try {
        double[] s = sample();
        if (s != null) {
          synchronized (samples) {
            samples.add(s);
          }
        }
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      } catch (ReflectiveOperationException | RuntimeException e) {
        // The engine is not there yet, or going away; a changed engine API is said once.
        if (!failed) {
          failed = true;
          System.err.println("session trace: cannot read the engine: " + e);
        }
      }
    }
  }

  /** t, L, inFlight, waiting, sessionWaiting, overdue, estimate, admitted, newRefused, mid. */
  private double[] sample() throws ReflectiveOperationException {
    Object engine = EngineGauge.engineIn(context);
    if (engine == null) {
      return null;
    }
    long now = System.nanoTime();
    Object group = ((List<?>) call(engine, "concurrencyGroups")).get(0);
    Object queues = call(engine, "queues");
    Object gate = call(engine, "sessions");
    double estimate = Double.NaN;
    double active = Double.NaN;
    Map<?, ?> loads = gate == null ? Map.of() : (Map<?, ?>) field(gate, "loads");
    if (!loads.isEmpty()) {
      Object load = loads.values().iterator().next();
      double rate = (Double) hidden(load, "ratePerSession");
      double capacity = (Double) hidden(load, "capacity");
      Method m = gate.getClass().getDeclaredMethod("activeSessions", long.class);
      m.setAccessible(true);
      Method tickerMethod = engine.getClass().getMethod("ticker");
      Object ticker = tickerMethod.invoke(engine);
      long engineNow = (Long) tickerMethod.getReturnType().getMethod("read").invoke(ticker);
      active = (Integer) m.invoke(gate, engineNow);
      estimate = active * rate / capacity;
    }
    return new double[] {
      (now - startNanos) / 1e9,
      (Integer) call(group, "limit"),
      (Integer) call(group, "inFlight"),
      (Integer) call(queues, "waitingCount"),
      (Integer) call(queues, "sessionWaitingCount"),
      (Boolean) call(queues, "sessionOverdue") ? 1 : 0,
      estimate,
      active,
      gate == null ? 0 : (Long) call(gate, "admittedCount"),
      gate == null ? 0 : (Long) call(gate, "newSessionsRefusedCount"),
      gate == null ? 0 : (Long) call(gate, "midSessionRefusalCount"),
      gate == null ? 0 : (Integer) call(gate, "admittedSessions")
    };
  }

  private static Object call(Object target, String method) throws ReflectiveOperationException {
    Method m = target.getClass().getMethod(method);
    return m.invoke(target);
  }

  private static Object hidden(Object target, String method) throws ReflectiveOperationException {
    Method m = target.getClass().getDeclaredMethod(method);
    m.setAccessible(true);
    return m.invoke(target);
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    Field f = target.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(target);
  }

  /** Stops sampling. */
  void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(2000);
  }

  /** Writes the per-second trace, with the server log's pages and orders, to {@code file}. */
  void write(Path file, List<ServedRequest> log, double timeScale) throws IOException {
    List<double[]> all;
    synchronized (samples) {
      all = new ArrayList<>(samples);
    }
    int n = all.isEmpty() ? 0 : (int) Math.ceil(all.get(all.size() - 1)[0]) + 1;
    long[] served = new long[n];
    long[] refused = new long[n];
    long[] orders = new long[n];
    long[] late = new long[n];
    double[] busy = new double[n];
    for (ServedRequest r : log) {
      int s = (int) Math.floorDiv(r.completionNanos() - startNanos, 1_000_000_000L);
      if (s < 0 || s >= n) {
        continue;
      }
      if (r.served() && !r.userLeft()) {
        served[s]++;
        String path = r.path().startsWith("/shop") ? r.path().substring(5) : r.path();
        busy[s] +=
            ShopRequest.fromPath(path).map(t -> t.serviceMillis() * timeScale / 1000).orElse(0.0);
        if (r.path().endsWith("/confirm") && r.status() == 200) {
          orders[s]++;
        }
      } else if (r.refused()) {
        refused[s]++;
      } else if (r.userLeft()) {
        late[s]++;
      }
    }
    StringBuilder csv =
        new StringBuilder(
            "second,limitMin,limitMean,inFlightMean,waitingMean,sessionWaitingMean,"
                + "overdueShare,estimateMean,activeMean,admittedNew,newRefused,midSession,"
                + "tableSize,served,refused,userLeft,orders,goodput\n");
    double[] prev = null;
    for (int s = 0; s < n; s++) {
      double lMin = Double.NaN;
      double[] sum = new double[6];
      int count = 0;
      int estimates = 0;
      double[] last = null;
      for (double[] x : all) {
        if ((int) x[0] != s) {
          continue;
        }
        lMin = Double.isNaN(lMin) ? x[1] : Math.min(lMin, x[1]);
        sum[0] += x[1];
        sum[1] += x[2];
        sum[2] += x[3];
        sum[3] += x[4];
        sum[4] += x[5];
        if (!Double.isNaN(x[6])) {
          sum[5] += x[6];
          estimates++;
        }
        count++;
        last = x;
      }
      if (count == 0) {
        continue;
      }
      double activeMean = last[7];
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%.0f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.0f,%.0f,%.0f,%.0f,%.0f,%d,%d,%d,%d,%.2f%n",
              s,
              lMin,
              sum[0] / count,
              sum[1] / count,
              sum[2] / count,
              sum[3] / count,
              sum[4] / count,
              estimates == 0 ? Double.NaN : sum[5] / estimates,
              activeMean,
              prev == null ? last[8] : last[8] - prev[8],
              prev == null ? last[9] : last[9] - prev[9],
              prev == null ? last[10] : last[10] - prev[10],
              last[11],
              served[s],
              refused[s],
              late[s],
              orders[s],
              busy[s]));
      prev = last;
    }
    Files.writeString(file, csv.toString());
    // Every 100 ms sample as well: a late response is set against the limit and the in-flight
    // count at its own moment, not a second's mean.
    StringBuilder raw = new StringBuilder("seconds,limit,inFlight,waiting\n");
    for (double[] x : all) {
      raw.append(String.format(Locale.ROOT, "%.3f,%.0f,%.0f,%.0f%n", x[0], x[1], x[2], x[3]));
    }
    String name = file.getFileName().toString();
    Files.writeString(file.resolveSibling(name.replace(".csv", "-raw.csv")), raw.toString());
  }
}
