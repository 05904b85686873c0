package org.overloadcontrol.simulation;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The sample shop's sessions in {@link SharedBottleneck}'s shop-like case: eight pages (home,
 * browse, search, details; login, shipping, payment, confirm) with the shop's service times
 * at time scale 0.1 and its targets, and a Markov chain of pages in the shape of the
 * experiments' calibrated session model (LIFO-Pri §3.2.1): browsing pages lead to each other
 * and, from the details page, to the purchase steps, which continue with 0.89 / 0.91 / 0.90.
 * A user leaves after confirming or at the first refusal.
 */
final class ShopSessions {

  static final int HOME = 0;
  static final int CONFIRM = 7;
  static final String[] NAMES = {
    "home", "browse", "search", "details", "login", "shipping", "payment", "confirm"
  };

  /** Milliseconds of the one database connection per page (the shop's at time scale 0.1). */
  static final long[] SERVICE = {20, 30, 30, 22, 28, 42, 50, 30};

  /** p90 targets: browsing 200 ms, checkout 150 ms (the shop's 2 s and 1.5 s, scaled). */
  static final long[] TARGETS = {200, 200, 200, 200, 150, 150, 150, 150};

  /** The shop's ranks: checkout above browsing, later steps higher. */
  private static final int[] RANKS = {1, 2, 3, 4, 5, 6, 7, 8};

  static final double THINK_SECONDS = 0.5;

  /** next[i][j]: page i to page j; the rest of a row leaves. */
  private static final double[][] NEXT = {
    {0, 0.45, 0.27, 0.18, 0, 0, 0, 0},
    {0, 0.24, 0.16, 0.40, 0, 0, 0, 0},
    {0, 0.08, 0.16, 0.56, 0, 0, 0, 0},
    {0, 0.24, 0.24, 0.24, 0.08, 0, 0, 0},
    {0, 0, 0, 0, 0, 0.89, 0, 0},
    {0, 0, 0, 0, 0, 0, 0.91, 0},
    {0, 0, 0, 0, 0, 0, 0, 0.90},
    {0, 0, 0, 0, 0, 0, 0, 0}
  };

  /** The server's mean work per session, from the chain (estimated once, seeded). */
  final long meanWorkNanos;

  ShopSessions() {
    Random r = new Random(1);
    long work = 0;
    int sessions = 100_000;
    for (int s = 0; s < sessions; s++) {
      for (int page = HOME; page >= 0; page = next(page, r)) {
        work += SERVICE[page] * SharedBottleneck.MS;
      }
    }
    meanWorkNanos = work / sessions;
  }

  /** The page after {@code page}, or -1 when the user leaves. */
  int next(int page, Random random) {
    double u = random.nextDouble();
    for (int j = 0; j < NEXT[page].length; j++) {
      u -= NEXT[page][j];
      if (u < 0) {
        return j;
      }
    }
    return -1;
  }

  /** The classes, one per page, and the shop's 6 wait-queue permits. */
  static Map<String, String> classes() {
    Map<String, String> keys = new HashMap<>();
    for (int i = 0; i < NAMES.length; i++) {
      keys.put("classes." + NAMES[i] + ".rank", Integer.toString(RANKS[i]));
      keys.put("classes." + NAMES[i] + ".kind", i < 4 ? "browsing" : "transaction");
      keys.put("endpoints.e" + i + ".class", NAMES[i]);
    }
    keys.put("queue.permits", "6");
    return keys;
  }
}
