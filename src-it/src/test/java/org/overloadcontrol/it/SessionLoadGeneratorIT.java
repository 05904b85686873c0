package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopClient;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The session generator against the real sample WAR: every session of a chain that always
 * buys really walks cart → login → shipping → payment → confirm in its own cookie session,
 * and the shop confirms each order (a confirm without the earlier steps of the same session
 * would answer 409, counted as a failure).
 */
class SessionLoadGeneratorIT {

  @Test
  void everySessionOfABuyingChainPlacesAnOrder() throws Exception {
    Path war =
        Path.of(System.getProperty("sample.war", "../sample-webapp/target/sample-webapp.war"));
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(war), "no sample WAR at " + war);
    double[][] buy = new double[8][8];
    buy[0][3] = 1; // home -> details
    buy[3][4] = 1; // details -> login
    buy[4][5] = 1; // login -> shipping
    buy[5][6] = 1; // shipping -> payment
    buy[6][7] = 1; // payment -> confirm
    System.setProperty("shop.timeScale", "0.01");
    WebContainer shop;
    try {
      shop = ContainerKind.JETTY.start(Deployment.of(war).withContextPath("/shop"));
    } finally {
      System.clearProperty("shop.timeScale");
    }
    try (shop;
        ShopClient client = new ShopClient(shop.baseUri(), 64)) {
      UserBehaviour users =
          new UserBehaviour(
              Duration.ofSeconds(10), Duration.ZERO, 0, 0, Duration.ofMillis(5), Duration.ZERO);
      RunResult r =
          new SessionLoadGenerator(
                  client,
                  SessionModel.of(buy),
                  users,
                  new EngineGauge(shop.servletContext()),
                  Map.of())
              .run(
                  StepSchedule.constant(5),
                  Duration.ofSeconds(4),
                  Duration.ofSeconds(10),
                  Duration.ofSeconds(1),
                  1L);

      // 5 sessions/s stays under the shop's own limits (20 requests/s per endpoint at first,
      // the virtual queue above 10 confirms/s), so nothing may fail.
      assertThat(r.sessionsStarted()).isGreaterThan(10);
      assertThat(r.sessionsAbandoned()).as(RunReport.perType(r)).isZero();
      assertThat(r.purchases()).isEqualTo(r.sessionsStarted());
      for (ShopRequest t :
          new ShopRequest[] {
            ShopRequest.HOME,
            ShopRequest.DETAILS,
            ShopRequest.CART,
            ShopRequest.LOGIN,
            ShopRequest.SHIPPING,
            ShopRequest.PAYMENT,
            ShopRequest.CONFIRM
          }) {
        RunResult.TypeCounts c = r.types().get(t);
        assertThat(c.generated()).as(t.name()).isEqualTo(r.sessionsStarted());
        assertThat(c.completed()).as(t.name()).isEqualTo(r.sessionsStarted());
      }
      assertThat(r.total().failed()).isZero();
    }
  }
}
