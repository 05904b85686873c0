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
 *
 * <p>Two chains. {@link #ShopSessions()} is the one the shop-like tests were tuned on: a session
 * reaches the purchase steps with a probability of 0.13 (5.3 pages a session). {@link #sweep()}
 * is the chain the overload sweep offers the real shop (the experiments' calibrated session
 * model: P(confirm) from home 0.027, 2.7 pages a session), whose checkout pages are about four
 * times sparser, with the shop's utilities (which order the browsing queues: with all at one,
 * the home page's long queue took nearly every permit at 10× and no buyer got through): at 10×
 * a checkout page gets 0–10 responses a minute, as on the shop.
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
  private static final double[][] TUNED = {
    {0, 0.45, 0.27, 0.18, 0, 0, 0, 0},
    {0, 0.24, 0.16, 0.40, 0, 0, 0, 0},
    {0, 0.08, 0.16, 0.56, 0, 0, 0, 0},
    {0, 0.24, 0.24, 0.24, 0.08, 0, 0, 0},
    {0, 0, 0, 0, 0, 0.89, 0, 0},
    {0, 0, 0, 0, 0, 0, 0.91, 0},
    {0, 0, 0, 0, 0, 0, 0, 0.90},
    {0, 0, 0, 0, 0, 0, 0, 0}
  };

  /**
   * The overload sweep's chain: the experiments' calibrated session model (LIFO-Pri §3.2.1's
   * probabilities of reaching confirm, 0.027 from home, 0.022 / 0.036 / 0.073 from browse,
   * search and details), rounded to three places.
   */
  private static final double[][] SWEEP = {
    {0, 0.371, 0.223, 0.148, 0, 0, 0, 0},
    {0, 0.131, 0.087, 0.219, 0, 0, 0, 0},
    {0, 0.060, 0.119, 0.417, 0, 0, 0, 0},
    {0, 0.195, 0.195, 0.195, 0.065, 0, 0, 0},
    {0, 0, 0, 0, 0, 0.89, 0, 0},
    {0, 0, 0, 0, 0, 0, 0.91, 0},
    {0, 0, 0, 0, 0, 0, 0, 0.90},
    {0, 0, 0, 0, 0, 0, 0, 0}
  };

  /** The shop's utilities (LIFO-Pri Table 3), which order the browsing queues. */
  private static final int[] UTILITIES = {27, 22, 36, 73, 3650, 4050, 4500, 5000};

  private final double[][] chain;

  /** Whether the classes carry the shop's utilities (else every class has the default). */
  private final boolean utilities;

  /** The server's mean work per session, from the chain (estimated once, seeded). */
  final long meanWorkNanos;

  ShopSessions() {
    this(TUNED, false);
  }

  /** The overload sweep's sparser chain (see the class comment). */
  static ShopSessions sweep() {
    return new ShopSessions(SWEEP, true);
  }

  private ShopSessions(double[][] chain, boolean utilities) {
    this.chain = chain;
    this.utilities = utilities;
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
    for (int j = 0; j < chain[page].length; j++) {
      u -= chain[page][j];
      if (u < 0) {
        return j;
      }
    }
    return -1;
  }

  /** The classes, one per page, and the shop's 6 wait-queue permits. */
  Map<String, String> classes() {
    Map<String, String> keys = new HashMap<>();
    for (int i = 0; i < NAMES.length; i++) {
      if (utilities) {
        keys.put("classes." + NAMES[i] + ".utility", Integer.toString(UTILITIES[i]));
      }
      keys.put("classes." + NAMES[i] + ".rank", Integer.toString(RANKS[i]));
      keys.put("classes." + NAMES[i] + ".kind", i < 4 ? "browsing" : "transaction");
      keys.put("endpoints.e" + i + ".class", NAMES[i]);
    }
    keys.put("queue.permits", "6");
    return keys;
  }
}
