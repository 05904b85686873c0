package org.overloadcontrol.it.experiments;

import java.util.Locale;

/**
 * Li &amp; Jamin's Table IV from bytes received per client per second: over a window of seconds
 * in which every client is active, each client's actual allocation (its percentage of the bytes
 * all received), the error against its entitled share in percentage points, the mean absolute
 * error of the per-second shares, and the paper's equation 10 (which it calls MSE; it is the
 * root of the summed squared errors, on fractions).
 */
final class AllocationTable {

  private final int[] sharePercent;
  private final double[] actualPercent;
  private final double[] meanAbsPerSecondPoints;
  private final int secondCount;

  private AllocationTable(
      int[] sharePercent,
      double[] actualPercent,
      double[] meanAbsPerSecondPoints,
      int secondCount) {
    this.sharePercent = sharePercent;
    this.actualPercent = actualPercent;
    this.meanAbsPerSecondPoints = meanAbsPerSecondPoints;
    this.secondCount = secondCount;
  }

  /**
   * The table over seconds {@code [from, to)} of {@code bytes[client][second]}; seconds in which
   * nobody received anything are left out of the per-second mean.
   */
  static AllocationTable of(int[] sharePercent, double[][] bytes, int from, int to) {
    int n = sharePercent.length;
    double[] totals = new double[n];
    double[] absSum = new double[n];
    int seconds = 0;
    for (int s = from; s < to; s++) {
      double all = 0;
      for (int c = 0; c < n; c++) {
        all += bytes[c][s];
      }
      if (all <= 0) {
        continue;
      }
      seconds++;
      for (int c = 0; c < n; c++) {
        totals[c] += bytes[c][s];
        absSum[c] += Math.abs(100 * bytes[c][s] / all - sharePercent[c]);
      }
    }
    double grand = 0;
    for (double t : totals) {
      grand += t;
    }
    double[] actual = new double[n];
    double[] meanAbs = new double[n];
    for (int c = 0; c < n; c++) {
      actual[c] = grand == 0 ? Double.NaN : 100 * totals[c] / grand;
      meanAbs[c] = seconds == 0 ? Double.NaN : absSum[c] / seconds;
    }
    return new AllocationTable(sharePercent.clone(), actual, meanAbs, seconds);
  }

  double actualPercent(int client) {
    return actualPercent[client];
  }

  /** |actual − entitled| in percentage points, the paper's "Error (%)" column. */
  double errorPoints(int client) {
    return Math.abs(actualPercent[client] - sharePercent[client]);
  }

  /** The mean over the window's seconds of |that second's share − entitled|, in points. */
  double meanAbsPerSecondPoints(int client) {
    return meanAbsPerSecondPoints[client];
  }

  /** Equation 10 on fractions: √Σ (target − actual)². */
  double paperMse() {
    double squares = 0;
    for (int c = 0; c < sharePercent.length; c++) {
      squares += Math.pow(errorPoints(c) / 100, 2);
    }
    return Math.sqrt(squares);
  }

  int secondCount() {
    return secondCount;
  }

  /** The markdown table beside the paper's figures ({@code paperActual} in the same order). */
  String markdown(String[] names, double[] paperActual, double paperMse) {
    StringBuilder md =
        new StringBuilder(
            "| client | allocation | actual | error (points)"
                + " | mean per-second error | paper actual | paper error |\n"
                + "|---|---|---|---|---|---|---|\n");
    for (int c = 0; c < sharePercent.length; c++) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d %% | %.2f %% | %.2f | %.2f | %.2f %% |" + " %.2f |%n",
              names[c],
              sharePercent[c],
              actualPercent[c],
              errorPoints(c),
              meanAbsPerSecondPoints[c],
              paperActual[c],
              Math.abs(paperActual[c] - sharePercent[c])));
    }
    md.append(
        String.format(
            Locale.ROOT, "| MSE (eq. 10) | | | %.4f | | | %.4f |%n", paperMse(), paperMse));
    return md.toString();
  }
}
