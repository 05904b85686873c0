package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.Browser;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ShopWalk;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Issue 6's proof: the built sample WAR file itself (system property {@code sample.war}, the
 * same file for both containers) deployed into embedded Jetty 12 and embedded Tomcat 10.1 under
 * a context path, a full purchase walked over HTTP on 127.0.0.1, confirm refused when a step
 * is skipped, and the filter's classification of each page read back from its engine.
 *
 * <p>Skipped, with a message, only when the WAR file is absent. The shop's service times are
 * scaled down ({@code shop.timeScale}) so the walk is quick.
 */
class SampleShopIT {

  private static final List<String> VISITED =
      List.of(
          "home",
          "browse",
          "search",
          "details",
          "images",
          "cart",
          "login",
          "shipping",
          "payment",
          "confirm");

  private static Path war;
  private static String savedTimeScale;

  @BeforeAll
  static void findWar() {
    String path = System.getProperty("sample.war");
    Assumptions.assumeTrue(
        path != null && Files.isRegularFile(Path.of(path)),
        "sample WAR absent ("
            + path
            + "): build it first, e.g. mvn -pl sample-webapp package;"
            + " the shop tests are skipped");
    war = Path.of(path);
    savedTimeScale = System.setProperty("shop.timeScale", "0.05");
  }

  @AfterAll
  static void restore() {
    if (savedTimeScale == null) {
      System.clearProperty("shop.timeScale");
    } else {
      System.setProperty("shop.timeScale", savedTimeScale);
    }
  }

  /** Fails at once, saying so, when the WAR is not (yet) the shop of the contract. */
  private static void requireShop(WebContainer shop) throws Exception {
    Browser.Page home = new Browser(shop.baseUri()).get("");
    assertThat(home.shopPage())
        .as(
            "the sample WAR %s serves no shop home page at %s (status %d): it does not"
                + " implement the shop contract (yet)",
            war, shop.baseUri(), home.status())
        .hasValue("home");
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aFullPurchaseWorksAndEveryPageIsClassifiedAsAnnotated(ContainerKind kind) throws Exception {
    try (WebContainer shop = kind.start(Deployment.of(war).withContextPath("/shop"))) {
      requireShop(shop);
      ShopWalk walk = new ShopWalk(shop);
      String orderId = walk.purchase();
      System.out.printf(
          "[%s] sample shop at %s: purchase completed, order %s%n", kind, shop.baseUri(), orderId);
      walk.classificationMatchesTheContract(VISITED);
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void confirmIsRefusedWhenAStepIsSkipped(ContainerKind kind) throws Exception {
    try (WebContainer shop = kind.start(Deployment.of(war).withContextPath("/shop"))) {
      requireShop(shop);
      new ShopWalk(shop).confirmRefusedWhenAStepIsSkipped();
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theShopAlsoRunsAtTheRootContext(ContainerKind kind) throws Exception {
    try (WebContainer shop = kind.start(Deployment.of(war))) {
      requireShop(shop);
      assertThat(new ShopWalk(shop).purchase()).isNotBlank();
    }
  }
}
