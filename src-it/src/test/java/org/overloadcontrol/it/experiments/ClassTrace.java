package org.overloadcontrol.it.experiments;

import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.it.load.EngineGauge;

/**
 * A diagnostic trace of the two-class experiment, read from the deployed shop every few
 * milliseconds: per request class, the summed rate of its token buckets over the shop's
 * endpoints and its requests in flight by the engine's count; and the shop's database
 * connections in use and requests waiting for one. Where a class's late responses come from
 * (the spike's onset, before the controller reacted, or its whole length) is read from this
 * beside the client's own per-class series. The engine and the shop come from the WAR's class
 * loader, so both are read by reflection, by their public method names.
 */
final class ClassTrace implements AutoCloseable {

  private static final String SHOP_ATTRIBUTE = "org.overloadcontrol.sample.Shop";

  /** One reading: seconds from the start, per class rate and in flight, the database's state. */
  record Reading(
      double seconds,
      Map<String, Double> rates,
      Map<String, Long> inFlight,
      int databaseInUse,
      int databaseWaiting) {}

  private final ServletContext context;
  private final long startNanos;
  private final List<Reading> readings = new ArrayList<>();

  /** Each endpoint and class's rate at the last reading, to log its jumps. */
  private final Map<String, Double> lastRates = new TreeMap<>();

  private final List<String> jumps = new ArrayList<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "class-trace");
            t.setDaemon(true);
            return t;
          });

  private ClassTrace(ServletContext context, long startNanos) {
    this.context = context;
    this.startNanos = startNanos;
  }

  /** Starts reading every {@code periodMillis} from now. */
  static ClassTrace start(ServletContext context, long periodMillis) {
    ClassTrace trace = new ClassTrace(context, System.nanoTime());
    trace.timer.scheduleAtFixedRate(trace::read, 0, periodMillis, TimeUnit.MILLISECONDS);
    return trace;
  }

  private void read() {
    try {
      Map<String, Double> rates = new TreeMap<>();
      Map<String, Long> inFlight = new TreeMap<>();
      Object engine = EngineGauge.engineIn(context);
      if (engine != null) {
        for (Object endpoint : (List<?>) call(engine, "endpoints")) {
          for (Object route : (List<?>) call(endpoint, "classes")) {
            String name = (String) call(call(route, "requestClass"), "name");
            Object controller = call(route, "controller");
            if ((Long) call(controller, "targetNanos") > 0) {
              double rate = (Double) call(controller, "rate");
              rates.merge(name, rate, Double::sum);
              noteJump(call(endpoint, "name") + "/" + name, rate);
            }
            inFlight.merge(name, (Long) call(route, "inFlight"), Long::sum);
          }
        }
      }
      int inUse = -1;
      int waiting = -1;
      Object shop = context.getAttribute(SHOP_ATTRIBUTE);
      if (shop != null) {
        Object database = call(shop, "database");
        inUse = (Integer) call(database, "inUseCount");
        waiting = (Integer) call(database, "waitingCount");
      }
      Reading r =
          new Reading((System.nanoTime() - startNanos) / 1e9, rates, inFlight, inUse, waiting);
      synchronized (readings) {
        readings.add(r);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the shop does not publish the expected API", e);
    }
  }

  /** Logs a rate that rose by half or more since the last reading: a restore, fill or doubling. */
  private void noteJump(String key, double rate) {
    Double last = lastRates.put(key, rate);
    if (last != null && rate >= 1.5 * last && rate - last >= 1) {
      String jump =
          String.format(
              Locale.ROOT,
              "%.3f,%s,%.2f,%.2f",
              (System.nanoTime() - startNanos) / 1e9,
              key,
              last,
              rate);
      synchronized (readings) {
        jumps.add(jump);
      }
    }
  }

  private static Object call(Object target, String method) throws ReflectiveOperationException {
    Method m = target.getClass().getMethod(method);
    return m.invoke(target);
  }

  /** The readings so far. */
  List<Reading> readings() {
    synchronized (readings) {
      return List.copyOf(readings);
    }
  }

  /** Writes the readings as CSV, one column per class for rate and in flight. */
  void writeCsv(Path file, List<String> classes) throws IOException {
    StringBuilder csv = new StringBuilder("seconds");
    for (String c : classes) {
      csv.append(',').append(c).append("_rate,").append(c).append("_in_flight");
    }
    csv.append(",db_in_use,db_waiting\n");
    for (Reading r : readings()) {
      csv.append(String.format(Locale.ROOT, "%.3f", r.seconds()));
      for (String c : classes) {
        csv.append(
            String.format(
                Locale.ROOT,
                ",%.2f,%d",
                r.rates().getOrDefault(c, Double.NaN),
                r.inFlight().getOrDefault(c, 0L)));
      }
      csv.append(',')
          .append(r.databaseInUse())
          .append(',')
          .append(r.databaseWaiting())
          .append('\n');
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, csv);
    synchronized (readings) {
      Files.writeString(
          Path.of(file.toString().replace(".csv", "-jumps.csv")),
          "seconds,endpoint_class,rate_before,rate_after\n" + String.join("\n", jumps) + "\n");
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
