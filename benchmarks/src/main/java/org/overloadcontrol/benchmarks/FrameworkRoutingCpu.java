package org.overloadcontrol.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link FrameworkRouting}'s three operations measured in the calling thread's CPU time
 * instead of wall time, interleaved in rounds of 500,000 calls each: on a host shared with other
 * builds a thread that waits for a core does not count, so the ratio of framework routing to
 * servlet-name routing holds steady where JMH's wall-clock figures swing by a factor of two
 * (docs/frameworks.md). A cross-check, not a replacement: JMH's safeguards against dead code
 * and constant folding are not here (each result is summed into a sink that is printed).
 * Argument: the number of rounds (default 21).
 */
public final class FrameworkRoutingCpu {

  private FrameworkRoutingCpu() {}

  /** Runs the rounds and prints each operation's median CPU time and the ratio. */
  public static void main(String[] args) {
    FrameworkRouting b = new FrameworkRouting();
    b.setUp();
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    int n = 500_000;
    int rounds = Integer.parseInt(args.length > 0 ? args[0] : "21");
    long sink = 0;
    for (int w = 0; w < 30; w++) {
      for (int i = 0; i < n; i++) {
        sink += b.servletName() ? 1 : 0;
        sink += b.frameworkRoutes() ? 1 : 0;
        sink += b.matchOnly().length();
      }
    }
    double[][] ns = new double[3][rounds];
    for (int r = 0; r < rounds; r++) {
      long c = t.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) {
        sink += b.servletName() ? 1 : 0;
      }
      long c1 = t.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) {
        sink += b.frameworkRoutes() ? 1 : 0;
      }
      long c2 = t.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) {
        sink += b.matchOnly().length();
      }
      long c3 = t.getCurrentThreadCpuTime();
      ns[0][r] = (c1 - c) / (double) n;
      ns[1][r] = (c2 - c1) / (double) n;
      ns[2][r] = (c3 - c2) / (double) n;
    }
    String[] names = {"servletName", "frameworkRoutes", "matchOnly"};
    for (int v = 0; v < 3; v++) {
      double[] s = ns[v].clone();
      Arrays.sort(s);
      System.out.printf(
          "%-16s median %.1f ns CPU/op (quartiles %.1f-%.1f)%n",
          names[v], s[rounds / 2], s[rounds / 4], s[3 * rounds / 4]);
    }
    double[] ratio = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      ratio[r] = ns[1][r] / ns[0][r];
    }
    Arrays.sort(ratio);
    System.out.printf(
        "frameworkRoutes / servletName: median %.2f (quartiles %.2f-%.2f) sink %d%n",
        ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4], sink % 7);
  }
}
