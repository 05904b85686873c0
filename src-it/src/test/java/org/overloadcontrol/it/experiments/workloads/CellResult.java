package org.overloadcontrol.it.experiments.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.overloadcontrol.it.serverlog.ServedRequest;

/**
 * The figures of one matrix run (a cell: workload, container, event, client kind, guard) and
 * the acceptance bars read off them. Times are seconds from the run's first arrival.
 *
 * <p>Goodput is responses completed <em>within the target</em> (client-side latency, 200) per
 * second, by completion time, over the capacity C measured in the same run with no guard;
 * refused shares and p90s count requests by the time they were sent. A retry is a request of
 * its own, with its own latency from its own send.
 *
 * @param attempts the client-side log
 * @param server the server-side log (requests whose client had left included)
 * @param limits the guard's limit samples, {seconds, limit}; NaN limits for no guard
 * @param sendLagMaxMicros how far the generator fell behind its schedule at worst
 * @param unanswered requests the generator gave up waiting for (it fell behind): the figures
 *     leave them out, so a cell with any is not to be trusted
 */
record CellResult(
    Event event,
    double capacity,
    double targetSeconds,
    long startNanos,
    List<Attempt> attempts,
    List<ServedRequest> server,
    List<double[]> limits,
    long sendLagMaxMicros,
    int unanswered) {

  /** Goodput bars: this share of the capacity. */
  static final double GOODPUT_BAR = 0.9;

  /** p90 bar: this multiple of the target. */
  static final double P90_BAR = 1.1;

  /** Refusal bar at 0.5× and 1×. */
  static final double REFUSED_BAR = 0.01;

  /** The stall's recovery bar, seconds after its end. */
  static final double RECOVERY_BAR_SECONDS = 3;

  /** Builds the result; {@code limitSamples} are {nanos, limit} as the server wrote them. */
  static CellResult of(
      Event event,
      double capacity,
      double targetSeconds,
      long startNanos,
      List<Attempt> attempts,
      List<ServedRequest> server,
      List<double[]> limitSamples,
      long sendLagMaxMicros,
      int unanswered) {
    List<double[]> limits = new ArrayList<>();
    for (double[] s : limitSamples) {
      limits.add(new double[] {(s[0] - startNanos) / 1e9, s[1]});
    }
    return new CellResult(
        event,
        capacity,
        targetSeconds,
        startNanos,
        attempts,
        server,
        limits,
        sendLagMaxMicros,
        unanswered);
  }

  private double at(long nanos) {
    return (nanos - startNanos) / 1e9;
  }

  /** Whether {@code nanos} falls in [from, to), seconds from the start. */
  private boolean in(long nanos, double from, double to) {
    double s = at(nanos);
    return s >= from && s < to;
  }

  /** Responses within the target completed in [from, to), per second, over the capacity. */
  double goodput(double from, double to) {
    long n =
        attempts.stream()
            .filter(a -> a.ok() && a.latencyNanos() <= targetSeconds * 1e9)
            .filter(a -> in(a.doneNanos(), from, to))
            .count();
    return n / (to - from) / capacity;
  }

  /** Responses 200 completed in [from, to), per second, over the capacity. */
  double throughput(double from, double to) {
    long n = attempts.stream().filter(a -> a.ok() && in(a.doneNanos(), from, to)).count();
    return n / (to - from) / capacity;
  }

  private List<Attempt> sentIn(double from, double to) {
    return attempts.stream().filter(a -> in(a.scheduledNanos(), from, to)).toList();
  }

  /**
   * Our filter's refusals over the whole run by reason, as the server log names them, each
   * {reason → {refused, of them within 1 ms of arrival}}: which path turns requests away, and
   * whether they waited first. Empty under a guard that does not say.
   */
  Map<String, long[]> refusalsByReason() {
    Map<String, long[]> out = new TreeMap<>();
    for (ServedRequest r : server) {
      if (r.rejection() != null) {
        long[] n = out.computeIfAbsent(r.rejection(), k -> new long[2]);
        n[0]++;
        if (r.responseNanos() <= IMMEDIATE_NANOS) {
          n[1]++;
        }
      }
    }
    return out;
  }

  /** A refusal this soon after its arrival did not wait. */
  static final long IMMEDIATE_NANOS = 1_000_000L;

  /** Refused attempts over all attempts sent in [from, to). */
  double refusedShare(double from, double to) {
    List<Attempt> in = sentIn(from, to);
    return in.isEmpty() ? 0 : in.stream().filter(Attempt::refused).count() / (double) in.size();
  }

  /**
   * Of the users whose first attempt was sent in [from, to), the share that got no 200 from any
   * of their attempts: what a user saw, where {@link #refusedShare} counts each re-sent attempt
   * again (a user refused four times at once by a full queue is four refused attempts).
   */
  double unservedShare(double from, double to) {
    Set<Integer> users =
        sentIn(from, to).stream()
            .filter(a -> a.attempt() == 0)
            .map(Attempt::user)
            .collect(Collectors.toSet());
    if (users.isEmpty()) {
      return 0;
    }
    long served =
        attempts.stream()
            .filter(a -> a.ok() && users.contains(a.user()))
            .map(Attempt::user)
            .distinct()
            .count();
    return (users.size() - served) / (double) users.size();
  }

  /** Attempts sent in [from, to) that got no response at all (timeouts, resets). */
  long failed(double from, double to) {
    return sentIn(from, to).stream().filter(a -> a.status() == Attempt.NO_RESPONSE).count();
  }

  /** The client-side p90 of the admitted (200) requests sent in [from, to), seconds; NaN if none. */
  double clientP90(double from, double to) {
    return p90Seconds(
        sentIn(from, to).stream().filter(Attempt::ok).mapToLong(Attempt::latencyNanos));
  }

  /**
   * The p90 of how long the attempts due in [from, to) took to go to the wire after they were
   * due, seconds ({@link Attempt#sendDelayNanos}): the generator's lag, its wait for one of
   * its connections (all of them held by requests the server has not answered, or its own
   * queue), and a new connection's handshake. NaN if none went.
   */
  double sendDelayP90(double from, double to) {
    return p90Seconds(
        sentIn(from, to).stream()
            .filter(a -> a.sentNanos() != Attempt.NOT_SENT)
            .mapToLong(Attempt::sendDelayNanos));
  }

  /**
   * The p90 of how long the requests due in [from, to) took to reach the server (its container
   * began to read them) after they were due, seconds: the send delay ({@link #sendDelayP90})
   * plus the container's queue of connections it has not read yet, which no server-side
   * measure sees. From the server's log, where each request carries its send time plus {@link
   * MatrixClient#TIMEOUT_MILLIS}. NaN if none arrived.
   */
  double arrivalDelayP90(double from, double to) {
    long timeout = MatrixClient.TIMEOUT_MILLIS * 1_000_000L;
    return p90Seconds(
        server.stream()
            .filter(r -> r.givesUpNanos() != ServedRequest.NO_DEADLINE)
            .filter(r -> in(r.givesUpNanos() - timeout, from, to))
            .mapToLong(r -> r.arrivalNanos() - (r.givesUpNanos() - timeout)));
  }

  /** The server-side p90 of the 200s that arrived in [from, to), seconds; NaN if none. */
  double serverP90(double from, double to) {
    return p90Seconds(
        server.stream()
            .filter(r -> r.status() == 200 && in(r.arrivalNanos(), from, to))
            .mapToLong(ServedRequest::responseNanos));
  }

  /** The p90 of {@code nanos} in seconds (negative ones read as 0); NaN if there are none. */
  private static double p90Seconds(LongStream nanos) {
    Histogram h = new Histogram(3);
    nanos.forEach(n -> h.recordValue(Math.max(0, n / 1000)));
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(90) / 1e6;
  }

  /** Responses the server completed for requests arriving in [from, to) whose client had left. */
  long servedAfterLeaving(double from, double to) {
    return server.stream().filter(r -> in(r.arrivalNanos(), from, to) && r.userLeft()).count();
  }

  /** The lowest limit sampled in [from, to); NaN without a limit. */
  double lowestLimit(double from, double to) {
    return limits.stream()
        .filter(s -> s[0] >= from && s[0] < to && !Double.isNaN(s[1]))
        .mapToDouble(s -> s[1])
        .min()
        .orElse(Double.NaN);
  }

  /**
   * Little's law's floor for [from, to): the concurrency the window's throughput within the
   * target needs (that throughput × the target), halved.
   */
  double limitFloor(double from, double to) {
    return goodput(from, to) * capacity * targetSeconds / 2;
  }

  /**
   * The Little's-law bar from {@link Event#SETTLE_SECONDS} to the end, second by second:
   * {seconds met, seconds sampled, the lowest limit / floor}; null for a guard without a limit.
   */
  double[] limitBar() {
    int met = 0;
    int seconds = 0;
    double worst = Double.POSITIVE_INFINITY;
    for (double s = Event.SETTLE_SECONDS; s + 1 <= event.seconds(); s++) {
      double limit = lowestLimit(s, s + 1);
      if (Double.isNaN(limit)) {
        // No sample in this second (the server's sampler fell behind on a busy machine).
        continue;
      }
      double floor = limitFloor(s, s + 1);
      seconds++;
      if (limit >= floor) {
        met++;
      }
      if (floor > 0) {
        worst = Math.min(worst, limit / floor);
      }
    }
    return seconds == 0 ? null : new double[] {met, seconds, worst};
  }

  /**
   * Seconds from the stall's end to the end of the first 1 s window (sliding by 0.25 s) with
   * goodput ≥ {@link #GOODPUT_BAR}; infinite when none comes before the run's end.
   */
  double recoverySeconds() {
    double end = event.stallEndSeconds();
    for (double t = end; t + 1 <= event.seconds(); t += 0.25) {
      if (goodput(t, t + 1) >= GOODPUT_BAR) {
        return t + 1 - end;
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** Whether the stall's bar is met: recovered within 3 s, and held from then to the end. */
  boolean recovered() {
    double from = event.stallEndSeconds() + RECOVERY_BAR_SECONDS;
    return recoverySeconds() <= RECOVERY_BAR_SECONDS
        && goodput(from, event.seconds()) >= GOODPUT_BAR;
  }

  /** One step's figures, from {@link Event#SETTLE_SECONDS} after its start to its end. */
  StepFigures step(Event.Step s) {
    double from = s.fromSeconds() + Math.min(Event.SETTLE_SECONDS, s.seconds() / 2);
    double to = s.toSeconds();
    return new StepFigures(
        s.multiple(),
        from,
        to,
        goodput(from, to),
        throughput(from, to),
        refusedShare(from, to),
        unservedShare(from, to),
        failed(from, to),
        clientP90(from, to),
        sendDelayP90(from, to),
        arrivalDelayP90(from, to),
        serverP90(from, to),
        servedAfterLeaving(from, to),
        lowestLimit(from, to));
  }

  /** The figures of one step's measured window. */
  record StepFigures(
      double multiple,
      double from,
      double to,
      double goodput,
      double throughput,
      double refusedShare,
      double unservedShare,
      long failed,
      double clientP90Seconds,
      double sendDelayP90Seconds,
      double arrivalDelayP90Seconds,
      double serverP90Seconds,
      long servedAfterLeaving,
      double lowestLimit) {

    /** The bars this step is held to, with "met" / "missed" for each; empty when none. */
    List<String> bars(double targetSeconds) {
      List<String> out = new ArrayList<>();
      if (multiple <= 1) {
        out.add(mark(refusedShare <= REFUSED_BAR, "refused ≤ 1 %"));
      }
      if (multiple >= 3) {
        out.add(
            mark(
                !Double.isNaN(clientP90Seconds) && clientP90Seconds <= P90_BAR * targetSeconds,
                "client p90 ≤ 1.1× target"));
        out.add(mark(goodput >= GOODPUT_BAR, "goodput ≥ 0.9"));
      }
      return out;
    }
  }

  static String mark(boolean met, String bar) {
    return bar + ": " + (met ? "met" : "**missed**");
  }

  static String fmt(double v, String pattern) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, pattern, v);
  }
}
