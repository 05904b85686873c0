package org.overloadcontrol.it.support;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An open-loop load driver: requests arrive as a Poisson process at a set rate, whatever the
 * server does, on Jetty's asynchronous {@link HttpClient}.
 *
 * <p>Open loop, and no coordinated omission: the send times are drawn in advance (exponential
 * gaps with mean 1/rate), a slow server never delays the next send, and each latency is
 * measured from the request's <em>scheduled</em> send time, so time a request spent waiting
 * for the driver or for a connection counts against the server, as it would for a user.
 * {@link LoadSummary#sendLagMaxMicros} shows how far the driver itself fell behind.
 *
 * <p>The driver only loads the machine it runs on (see {@link LoadPlan}). It keeps one client
 * for all its runs, with a small thread pool and enough connections that the server, not the
 * client, is what queues.
 */
public final class OpenLoopDriver implements AutoCloseable {

  /** Connections per destination unless told otherwise. */
  public static final int DEFAULT_MAX_CONNECTIONS = 512;

  private final HttpClient client;

  /** A driver with {@link #DEFAULT_MAX_CONNECTIONS} connections. */
  public OpenLoopDriver() throws Exception {
    this(DEFAULT_MAX_CONNECTIONS);
  }

  /** A driver that opens at most {@code maxConnections} connections to a server. */
  public OpenLoopDriver(int maxConnections) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("load-driver");
    threads.setDaemon(true);
    client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(maxConnections);
    client.setMaxRequestsQueuedPerDestination(1 << 20);
    client.setFollowRedirects(false);
    client.setConnectTimeout(5_000);
    client.start();
  }

  /** Runs {@code plan} and waits for every response (or its timeout). */
  public LoadSummary run(LoadPlan plan) throws InterruptedException {
    return new Run(plan).execute();
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // Best effort: the client's threads are daemons.
    }
  }

  /** The state of one run; responses arrive on the client's threads. */
  private final class Run {
    private final LoadPlan plan;
    private final LongAdder okCount = new LongAdder();
    private final LongAdder rejectedCount = new LongAdder();
    private final LongAdder otherCount = new LongAdder();
    private final LongAdder failedCount = new LongAdder();
    private final LongAdder noRetryAfterCount = new LongAdder();
    private final LongAccumulator sendLagMax = new LongAccumulator(Math::max, 0L);
    private final Map<Integer, Histogram> steady = new ConcurrentHashMap<>();
    private final Semaphore completed = new Semaphore(0);

    Run(LoadPlan plan) {
      this.plan = plan;
    }

    LoadSummary execute() throws InterruptedException {
      SplittableRandom random = new SplittableRandom(plan.seed());
      double meanGapNanos = 1e9 / plan.ratePerSecond();
      long start = System.nanoTime();
      long end = start + plan.duration().toNanos();
      long warmupEnd = start + plan.warmup().toNanos();
      long scheduled = start;
      int sent = 0;
      boolean byTime = false;
      while (sent < plan.maxRequestCount()) {
        scheduled += (long) (-Math.log(1.0 - random.nextDouble()) * meanGapNanos);
        if (scheduled >= end) {
          byTime = true;
          break;
        }
        parkUntil(scheduled);
        sendLagMax.accumulate((System.nanoTime() - scheduled) / 1000L);
        send(scheduled, scheduled >= warmupEnd);
        sent++;
      }
      Duration sendingTime = Duration.ofNanos((byTime ? end : scheduled) - start);
      long waitMillis = plan.requestTimeout().toMillis() + 5_000L;
      if (!completed.tryAcquire(sent, waitMillis, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "responses still outstanding "
                + waitMillis
                + " ms after the last send, past the request timeout");
      }
      return new LoadSummary(
          sent,
          okCount.sum(),
          rejectedCount.sum(),
          otherCount.sum(),
          failedCount.sum(),
          noRetryAfterCount.sum(),
          sendLagMax.get(),
          sendingTime,
          steady);
    }

    private void send(long scheduledNanos, boolean inSteadyPart) {
      Request request =
          client
              .newRequest(plan.target())
              .method(HttpMethod.GET)
              .timeout(plan.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
      plan.headers().forEach((name, value) -> request.headers(h -> h.put(name, value)));
      request.send(
          result -> {
            try {
              completed(result, System.nanoTime() - scheduledNanos, inSteadyPart);
            } finally {
              completed.release();
            }
          });
    }

    private void completed(Result result, long latencyNanos, boolean inSteadyPart) {
      Response response = result.getResponse();
      int status =
          result.isFailed() || response == null ? LoadSummary.NO_RESPONSE : response.getStatus();
      switch (status) {
        case LoadSummary.NO_RESPONSE -> failedCount.increment();
        case 200 -> okCount.increment();
        case 503, 429 -> { // 429: the filter's refusal in Tomcat (rejectionStatus: auto)
          rejectedCount.increment();
          if (!validRetryAfter(response.getHeaders().get(HttpHeader.RETRY_AFTER))) {
            noRetryAfterCount.increment();
          }
        }
        default -> otherCount.increment();
      }
      if (inSteadyPart) {
        steady
            .computeIfAbsent(status, s -> new ConcurrentHistogram(3))
            .recordValue(Math.max(0L, latencyNanos / 1000L));
      }
    }
  }

  /** RFC 9110 §10.2.3: a number of seconds or an HTTP date. */
  static boolean validRetryAfter(String value) {
    if (value == null || value.isBlank()) {
      return false;
    }
    String v = value.trim();
    if (v.chars().allMatch(Character::isDigit)) {
      return true;
    }
    try {
      ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static void parkUntil(long deadlineNanos) {
    long remaining;
    while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(remaining);
    }
  }
}
