package org.overloadcontrol.it.experiments.workloads;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.overloadcontrol.it.serverlog.ServerRequestLog;

/**
 * The matrix's load, one client per run (closing it drops whatever is left): open-loop Poisson arrivals whose rate follows an {@link Event}'s steps
 * (a multiple of the measured capacity), each arrival a client of one {@link ClientKind}, on
 * Jetty's asynchronous {@link HttpClient}. Every attempt's latency runs from its scheduled send
 * (no coordinated omission: a slow server never delays the next arrival) and goes into the
 * client-side log. Each request carries the time its client gives up, for the server's log.
 */
final class MatrixClient implements AutoCloseable {

  /** A request unanswered this long is a failure, and its client has left. */
  static final long TIMEOUT_MILLIS = 10_000;

  private final HttpClient client;
  private final ScheduledExecutorService retryTimer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "matrix-retry");
            t.setDaemon(true);
            return t;
          });

  MatrixClient(int maxConnections) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("matrix-client");
    threads.setDaemon(true);
    client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(maxConnections);
    client.setMaxRequestsQueuedPerDestination(1 << 20);
    client.setFollowRedirects(false);
    client.setConnectTimeout(5_000);
    client.start();
  }

  /**
   * What one run sent and saw.
   *
   * @param unanswered requests (and retries due) still without an answer when the run gave up
   *     waiting: the generator fell behind
   */
  record Run(long startNanos, List<Attempt> attempts, long sendLagMaxMicros, int unanswered) {}

  /**
   * Offers {@code event}'s load at {@code capacity} × its multiples to {@code target} from now;
   * {@code atStall} runs on the sending thread when the run reaches the event's stall (it sends
   * the stall's command). Returns when every attempt has its answer.
   */
  Run run(URI target, Event event, double capacity, ClientKind kind, long seed, Runnable atStall)
      throws InterruptedException {
    ConcurrentLinkedQueue<Attempt> log = new ConcurrentLinkedQueue<>();
    AtomicInteger outstanding = new AtomicInteger();
    LongAccumulator lag = new LongAccumulator(Math::max, 0);
    SplittableRandom random = new SplittableRandom(seed);
    long start = System.nanoTime();
    long end = start + (long) (event.seconds() * 1e9);
    long stallAt = event.stalls() ? start + (long) (event.stallAtSeconds() * 1e9) : Long.MAX_VALUE;
    long t = start;
    int user = 0;
    while (true) {
      double rate = capacity * event.multipleAt((t - start) / 1e9);
      t += (long) (-Math.log(1.0 - random.nextDouble()) * 1e9 / rate);
      if (t >= end) {
        break;
      }
      if (t >= stallAt) {
        parkUntil(stallAt);
        atStall.run();
        stallAt = Long.MAX_VALUE;
      }
      parkUntil(t);
      lag.accumulate((System.nanoTime() - t) / 1000);
      send(target, kind, user++, 0, t, log, outstanding);
    }
    // A generator the machine cannot keep up with falls behind its own timeouts; past this
    // wait the rest is reported as unanswered, and closing the client drops it.
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS + 5_000);
    while (outstanding.get() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    List<Attempt> attempts = new ArrayList<>(log);
    return new Run(start, attempts, lag.get(), outstanding.get());
  }

  private void send(
      URI target,
      ClientKind kind,
      int user,
      int attempt,
      long scheduled,
      ConcurrentLinkedQueue<Attempt> log,
      AtomicInteger outstanding) {
    outstanding.incrementAndGet();
    AtomicLong sent = new AtomicLong(Attempt.NOT_SENT);
    Request request =
        client
            .newRequest(target)
            .timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
            .headers(
                h ->
                    h.put(
                        ServerRequestLog.GIVES_UP_HEADER,
                        Long.toString(scheduled + TIMEOUT_MILLIS * 1_000_000L)))
            .onRequestCommit(r -> sent.set(System.nanoTime()));
    request.send(
        result -> {
          try {
            long now = System.nanoTime();
            Response response = result.getResponse();
            int status = failed(result) ? Attempt.NO_RESPONSE : response.getStatus();
            Attempt a = new Attempt(user, attempt, scheduled, sent.get(), now, status);
            log.add(a);
            if (a.refused() && attempt < kind.retries()) {
              if (kind == ClientKind.RETRY_NOW) {
                send(target, kind, user, attempt + 1, now, log, outstanding);
              } else {
                long wait = retryAfterNanos(response.getHeaders().get(HttpHeader.RETRY_AFTER));
                outstanding.incrementAndGet();
                retryTimer.schedule(
                    () -> {
                      try {
                        send(target, kind, user, attempt + 1, now + wait, log, outstanding);
                      } finally {
                        outstanding.decrementAndGet();
                      }
                    },
                    wait,
                    TimeUnit.NANOSECONDS);
              }
            }
          } finally {
            outstanding.decrementAndGet();
          }
        });
  }

  private static boolean failed(Result result) {
    return result.isFailed() || result.getResponse() == null;
  }

  /** Seconds of {@code Retry-After} (RFC 9110 §10.2.3, the delay form), else the fallback. */
  static long retryAfterNanos(String header) {
    if (header != null && !header.isBlank() && header.trim().chars().allMatch(Character::isDigit)) {
      return TimeUnit.SECONDS.toNanos(Long.parseLong(header.trim()));
    }
    return ClientKind.WITHOUT_RETRY_AFTER.toNanos();
  }

  private static void parkUntil(long deadline) {
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(remaining);
    }
  }

  @Override
  public void close() {
    retryTimer.shutdownNow();
    try {
      client.stop();
    } catch (Exception e) {
      // Best effort: the client's threads are daemons.
    }
  }
}
