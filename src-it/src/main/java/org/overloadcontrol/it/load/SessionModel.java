package org.overloadcontrol.it.load;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;

/**
 * The user behaviour of the LIFO-Pri e-commerce workload (Singhmar et al. 2004, §2.1 and
 * Figure 1): a stationary Markov chain over the shop's eight pages, with an absorbing "leave"
 * state. A session starts at the home page and moves between browsing pages; a few go on to
 * login → shipping → payment → confirm.
 *
 * <p>The figure's transition probabilities are not all printed, but the paper gives the facts
 * the chain must reproduce: the probability of eventually reaching confirm is 0.027 from home,
 * 0.022 from browse, 0.036 from search and 0.073 from details (§3.2.1, the source of Table 3's
 * utilities), and Table 4 at ρ = 0.85 gives login→shipping 792/888 ≈ 0.89,
 * shipping→payment 720/792 ≈ 0.91, payment→confirm 648/720 ≈ 0.90. {@link #calibrated} solves
 * for a matrix with these absorption probabilities: each browsing page keeps a fixed mix of
 * next pages (its "shape", our choice) and the probability of staying on the site is the one
 * unknown of its row, found from h_i = c_i · Σ_j s_ij h_j with the target h on the right.
 */
public final class SessionModel {

  /** LIFO-Pri §3.2.1: P(eventually confirm) from each browsing page. */
  public static final Map<ShopRequest, Double> PAPER_CONFIRM_PROBABILITY =
      Map.of(
          ShopRequest.HOME,
          0.027,
          ShopRequest.BROWSE,
          0.022,
          ShopRequest.SEARCH,
          0.036,
          ShopRequest.DETAILS,
          0.073);

  /** LIFO-Pri Table 4 (ρ = 0.85): the step-to-step continuation of a purchase. */
  public static final double LOGIN_TO_SHIPPING = 0.89;

  public static final double SHIPPING_TO_PAYMENT = 0.91;
  public static final double PAYMENT_TO_CONFIRM = 0.90;

  private static final List<ShopRequest> PAGES = ShopRequest.PAGES;

  /** transition[i][j]: page i to page j (order of {@link ShopRequest#PAGES}); rest leaves. */
  private final double[][] transition;

  /** Where every session starts: the home page, but for single-request workloads. */
  private final ShopRequest start;

  private SessionModel(double[][] transition) {
    this(transition, ShopRequest.HOME);
  }

  private SessionModel(double[][] transition, ShopRequest start) {
    index(start);
    int n = PAGES.size();
    if (transition.length != n) {
      throw new IllegalArgumentException("need " + n + " rows");
    }
    for (int i = 0; i < n; i++) {
      double sum = 0;
      for (double p : transition[i]) {
        if (p < 0) {
          throw new IllegalArgumentException("negative probability in row " + PAGES.get(i));
        }
        sum += p;
      }
      if (sum > 1 + 1e-12) {
        throw new IllegalArgumentException("row " + PAGES.get(i) + " sums to " + sum);
      }
    }
    this.transition = transition;
    this.start = start;
  }

  /** Sessions of one request to {@code page} (e.g. LIFO-Pri §3.1's single-URL load). */
  public static SessionModel singlePage(ShopRequest page) {
    return new SessionModel(new double[PAGES.size()][PAGES.size()], page);
  }

  /** The first page of every session. */
  public ShopRequest start() {
    return start;
  }

  /** The chain calibrated to the paper's facts (class javadoc). */
  public static SessionModel calibrated() {
    double hLogin = LOGIN_TO_SHIPPING * SHIPPING_TO_PAYMENT * PAYMENT_TO_CONFIRM;
    Map<ShopRequest, Double> h = new EnumMap<>(PAPER_CONFIRM_PROBABILITY);
    h.put(ShopRequest.LOGIN, hLogin);
    h.put(ShopRequest.SHIPPING, SHIPPING_TO_PAYMENT * PAYMENT_TO_CONFIRM);
    h.put(ShopRequest.PAYMENT, PAYMENT_TO_CONFIRM);
    h.put(ShopRequest.CONFIRM, 1.0);

    // Shapes: where a visitor who stays goes next (our choice; Figure 1's solid arrows).
    Map<ShopRequest, Map<ShopRequest, Double>> shapes =
        Map.of(
            ShopRequest.HOME,
                Map.of(ShopRequest.BROWSE, 0.5, ShopRequest.SEARCH, 0.3, ShopRequest.DETAILS, 0.2),
            ShopRequest.BROWSE,
                Map.of(ShopRequest.BROWSE, 0.3, ShopRequest.SEARCH, 0.2, ShopRequest.DETAILS, 0.5),
            ShopRequest.SEARCH,
                Map.of(ShopRequest.SEARCH, 0.2, ShopRequest.BROWSE, 0.1, ShopRequest.DETAILS, 0.7),
            ShopRequest.DETAILS,
                Map.of(
                    ShopRequest.LOGIN,
                    0.1,
                    ShopRequest.DETAILS,
                    0.3,
                    ShopRequest.BROWSE,
                    0.3,
                    ShopRequest.SEARCH,
                    0.3));

    int n = PAGES.size();
    double[][] p = new double[n][n];
    for (Map.Entry<ShopRequest, Map<ShopRequest, Double>> row : shapes.entrySet()) {
      double expected = 0;
      for (Map.Entry<ShopRequest, Double> s : row.getValue().entrySet()) {
        expected += s.getValue() * h.get(s.getKey());
      }
      double stay = h.get(row.getKey()) / expected;
      for (Map.Entry<ShopRequest, Double> s : row.getValue().entrySet()) {
        p[index(row.getKey())][index(s.getKey())] = stay * s.getValue();
      }
    }
    p[index(ShopRequest.LOGIN)][index(ShopRequest.SHIPPING)] = LOGIN_TO_SHIPPING;
    p[index(ShopRequest.SHIPPING)][index(ShopRequest.PAYMENT)] = SHIPPING_TO_PAYMENT;
    p[index(ShopRequest.PAYMENT)][index(ShopRequest.CONFIRM)] = PAYMENT_TO_CONFIRM;
    // After confirm the visitor leaves.
    return new SessionModel(p);
  }

  /** A model with the given matrix (rows and columns in {@link ShopRequest#PAGES} order). */
  public static SessionModel of(double[][] transition) {
    double[][] copy = new double[transition.length][];
    for (int i = 0; i < transition.length; i++) {
      copy[i] = transition[i].clone();
    }
    return new SessionModel(copy);
  }

  /** The probability of going from {@code from} to {@code to} in one step. */
  public double probability(ShopRequest from, ShopRequest to) {
    return transition[index(from)][index(to)];
  }

  /** The probability of leaving the site after {@code from}. */
  public double leaveProbability(ShopRequest from) {
    double sum = 0;
    for (double p : transition[index(from)]) {
      sum += p;
    }
    return Math.max(0, 1 - sum);
  }

  /** The page after {@code current}, or empty when the visitor leaves. */
  public Optional<ShopRequest> next(ShopRequest current, SplittableRandom random) {
    double u = random.nextDouble();
    double[] row = transition[index(current)];
    for (int j = 0; j < row.length; j++) {
      u -= row[j];
      if (u < 0) {
        return Optional.of(PAGES.get(j));
      }
    }
    return Optional.empty();
  }

  /**
   * Expected visits to each page in a session (which starts at {@link #start}): that row of
   * the fundamental matrix (I − Q)^−1 of the absorbing chain.
   */
  public Map<ShopRequest, Double> expectedVisits() {
    RealMatrix q = new Array2DRowRealMatrix(transition);
    RealMatrix fundamental =
        new LUDecomposition(MatrixUtils.createRealIdentityMatrix(PAGES.size()).subtract(q))
            .getSolver()
            .getInverse();
    Map<ShopRequest, Double> visits = new EnumMap<>(ShopRequest.class);
    for (int j = 0; j < PAGES.size(); j++) {
      visits.put(PAGES.get(j), fundamental.getEntry(index(start), j));
    }
    return visits;
  }

  /**
   * Requests a session sends when nothing fails: its pages plus one cart addition before each
   * login.
   */
  public double requestsPerSession() {
    Map<ShopRequest, Double> visits = expectedVisits();
    return visits.values().stream().mapToDouble(Double::doubleValue).sum()
        + visits.get(ShopRequest.LOGIN);
  }

  /** Mean database time per request at time scale 1, weighted by the session's mix. */
  public double meanServiceMillisPerRequest() {
    double work = 0;
    for (Map.Entry<ShopRequest, Double> v : expectedVisits().entrySet()) {
      work += v.getValue() * v.getKey().serviceMillis();
    }
    return work / requestsPerSession();
  }

  static int index(ShopRequest page) {
    int i = PAGES.indexOf(page);
    if (i < 0) {
      throw new IllegalArgumentException(page + " is not a page of the chain");
    }
    return i;
  }

  /** A copy of the matrix, rows and columns in {@link ShopRequest#PAGES} order. */
  public double[][] matrix() {
    double[][] copy = new double[transition.length][];
    for (int i = 0; i < transition.length; i++) {
      copy[i] = transition[i].clone();
    }
    return copy;
  }
}
