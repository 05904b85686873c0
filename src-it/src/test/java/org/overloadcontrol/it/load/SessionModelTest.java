package org.overloadcontrol.it.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.junit.jupiter.api.Test;

class SessionModelTest {

  private final SessionModel model = SessionModel.calibrated();

  /**
   * The absorption probabilities into confirm, solved from the matrix as a linear system
   * (I − Q) h = r over the seven other pages, where r is each page's one-step probability of
   * confirm: they must be the paper's facts.
   */
  @Test
  void probabilityOfEventuallyConfirmingIsThePapers() {
    Map<ShopRequest, Double> h = absorptionIntoConfirm(model.matrix());

    assertThat(h.get(ShopRequest.HOME)).isCloseTo(0.027, within(1e-9));
    assertThat(h.get(ShopRequest.BROWSE)).isCloseTo(0.022, within(1e-9));
    assertThat(h.get(ShopRequest.SEARCH)).isCloseTo(0.036, within(1e-9));
    assertThat(h.get(ShopRequest.DETAILS)).isCloseTo(0.073, within(1e-9));
    assertThat(h.get(ShopRequest.LOGIN)).isCloseTo(0.89 * 0.91 * 0.90, within(1e-9));
  }

  @Test
  void purchaseStepsContinueAsInTable4() {
    assertThat(model.probability(ShopRequest.LOGIN, ShopRequest.SHIPPING)).isEqualTo(0.89);
    assertThat(model.probability(ShopRequest.SHIPPING, ShopRequest.PAYMENT)).isEqualTo(0.91);
    assertThat(model.probability(ShopRequest.PAYMENT, ShopRequest.CONFIRM)).isEqualTo(0.90);
    assertThat(model.leaveProbability(ShopRequest.CONFIRM)).isEqualTo(1.0);
    // Login is reached only from details (Figure 1), never from home, browse or search.
    assertThat(model.probability(ShopRequest.HOME, ShopRequest.LOGIN)).isZero();
    assertThat(model.probability(ShopRequest.BROWSE, ShopRequest.LOGIN)).isZero();
    assertThat(model.probability(ShopRequest.SEARCH, ShopRequest.LOGIN)).isZero();
    assertThat(model.probability(ShopRequest.DETAILS, ShopRequest.LOGIN)).isPositive();
  }

  @Test
  void everyRowIsAProbabilityDistribution() {
    for (double[] row : model.matrix()) {
      double sum = 0;
      for (double p : row) {
        assertThat(p).isBetween(0.0, 1.0);
        sum += p;
      }
      assertThat(sum).isLessThanOrEqualTo(1.0 + 1e-12);
    }
  }

  /** Walking the chain with {@link SessionModel#next} confirms as often as the matrix says. */
  @Test
  void sampledSessionsConfirmAtTheCalibratedRate() {
    SplittableRandom random = new SplittableRandom(7);
    int sessions = 400_000;
    int confirms = 0;
    long pages = 0;
    for (int s = 0; s < sessions; s++) {
      ShopRequest page = ShopRequest.HOME;
      pages++;
      for (Optional<ShopRequest> n = model.next(page, random);
          n.isPresent();
          n = model.next(page, random)) {
        page = n.get();
        pages++;
        if (page == ShopRequest.CONFIRM) {
          confirms++;
        }
      }
    }
    // Binomial standard error at 0.027 and 400k sessions is 0.00026: 4 sigma.
    assertThat(confirms / (double) sessions).isCloseTo(0.027, within(0.001));
    double expectedPages =
        model.expectedVisits().values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(pages / (double) sessions).isCloseTo(expectedPages, within(0.02));
  }

  /**
   * The mix is browsing-heavy as in Table 4 (ρ = 0.85: 54480 browsing requests for 648
   * confirms, 84 to 1); ours is within a factor of two of that.
   */
  @Test
  void browsingToConfirmRatioIsNearTable4() {
    Map<ShopRequest, Double> v = model.expectedVisits();
    double browsing =
        v.get(ShopRequest.HOME)
            + v.get(ShopRequest.BROWSE)
            + v.get(ShopRequest.SEARCH)
            + v.get(ShopRequest.DETAILS);
    double ratio = browsing / v.get(ShopRequest.CONFIRM);
    assertThat(ratio).isBetween(42.0, 168.0);
    assertThat(v.get(ShopRequest.CONFIRM)).isCloseTo(0.027, within(1e-9));
  }

  private static Map<ShopRequest, Double> absorptionIntoConfirm(double[][] p) {
    List<ShopRequest> pages = ShopRequest.PAGES;
    int confirm = pages.indexOf(ShopRequest.CONFIRM);
    int n = pages.size() - 1;
    RealMatrix a = new Array2DRowRealMatrix(n, n);
    RealVector r = new ArrayRealVector(n);
    for (int i = 0, ri = 0; i < pages.size(); i++) {
      if (i == confirm) {
        continue;
      }
      for (int j = 0, cj = 0; j < pages.size(); j++) {
        if (j == confirm) {
          continue;
        }
        a.setEntry(ri, cj, (ri == cj ? 1 : 0) - p[i][j]);
        cj++;
      }
      r.setEntry(ri, p[i][confirm]);
      ri++;
    }
    RealVector h = new LUDecomposition(a).getSolver().solve(r);
    Map<ShopRequest, Double> out = new EnumMap<>(ShopRequest.class);
    for (int i = 0, ri = 0; i < pages.size(); i++) {
      if (i != confirm) {
        out.put(pages.get(i), h.getEntry(ri++));
      }
    }
    return out;
  }
}
