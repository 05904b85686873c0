package org.overloadcontrol.cluster.hazelcast;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.overloadcontrol.internal.virtualqueue.VirtualQueue;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueDecision;

/**
 * A flash crowd on real time against several nodes' virtual queues, as a round-robin balancer
 * without stickiness would spread it: at the start of every wall-clock second, {@code overload}
 * × C newcomers, then every client whose slot has come presents its token; each request goes to
 * the next live node. Counts what was let in per second and the slowest answer per node.
 */
final class FlashCrowd {

  private final List<VirtualQueue> queues;
  private final double capacity;
  private final int overload;
  private final double[] letIn = new double[120];
  private final StringBuilder shares = new StringBuilder();
  private final long[] slowestNanos;
  private final String[] slowest;
  private final Map<Long, List<String[]>> returning = new HashMap<>();
  private final List<Integer> up = new ArrayList<>();
  private long startSecond;
  private int next;
  private int client;

  FlashCrowd(List<VirtualQueue> queues, double capacity, int overload) {
    this.queues = queues;
    this.capacity = capacity;
    this.overload = overload;
    this.slowestNanos = new long[queues.size()];
    this.slowest = new String[queues.size()];
    for (int i = 0; i < queues.size(); i++) {
      up.add(i);
    }
  }

  /**
   * Runs for {@code seconds} more, calling {@code atSecond} with the crowd's second (counted
   * from its first run) at the start of each. A later run goes on where the last stopped: the
   * clients told to wait still come back.
   */
  void run(int seconds, IntConsumer atSecond) throws InterruptedException {
    if (startSecond == 0) {
      startSecond = System.currentTimeMillis() / 1000 + 1;
    }
    int end = (int) (System.currentTimeMillis() / 1000 + 1 - startSecond) + seconds;
    java.util.Arrays.fill(slowestNanos, 0);
    for (int s = end - seconds; s < end; s++) {
      long second = startSecond + s;
      long sleep = second * 1000 + 20 - System.currentTimeMillis();
      if (sleep > 0) {
        Thread.sleep(sleep);
      }
      atSecond.accept(s);
      shares.append(" [");
      for (VirtualQueue q : queues) {
        shares.append(String.format(" %.1f", q.share()));
      }
      shares.append(']');
      for (String[] back : returning.getOrDefault(second, List.of())) {
        if (send(back[0], back[1]) instanceof VirtualQueueDecision.Pass) {
          letIn[s]++;
        }
      }
      for (int i = 0; i < overload * capacity; i++) {
        String address = "198.51." + (client / 250 % 250) + "." + (client % 250);
        client++;
        VirtualQueueDecision d = send(address, null);
        if (d instanceof VirtualQueueDecision.Pass) {
          letIn[s]++;
        } else if (d instanceof VirtualQueueDecision.Wait w) {
          returning
              .computeIfAbsent(second + w.waitSeconds(), k -> new ArrayList<>())
              .add(new String[] {address, w.token()});
        }
      }
    }
  }

  /** The slowest answer of node {@code node} in the last run. */
  long slowestNanos(int node) {
    return slowestNanos[node];
  }

  /** Takes node {@code node} out of the balancer's rotation. */
  void stop(int node) {
    up.remove(Integer.valueOf(node));
  }

  private VirtualQueueDecision send(String address, String token) {
    int node = up.get(Math.floorMod(next++, up.size()));
    long start = System.nanoTime();
    VirtualQueueDecision d =
        queues.get(node).decide(address, ClusterOfThreeTest.URL, token, "default", start);
    long took = System.nanoTime() - start;
    if (took > slowestNanos[node]) {
      slowestNanos[node] = took;
      slowest[node] =
          (token == null ? "newcomer" : "token")
              + " at "
              + (System.currentTimeMillis() / 1000 - startSecond);
    }
    return d;
  }

  double letIn(int second) {
    return letIn[second];
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("let in per second (C = " + capacity + "):");
    for (int s = 0; s < letIn.length && (s < 12 || letIn[s] > 0); s++) {
      sb.append(' ').append((int) letIn[s]);
    }
    sb.append("; shares per second:").append(shares).append("; slowest answer per node:");
    for (int i = 0; i < slowest.length; i++) {
      sb.append(String.format(" %.1f ms (%s)", slowestNanos[i] / 1e6, slowest[i]));
    }
    return sb.toString();
  }
}
