package org.overloadcontrol.it;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ShopWalk;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.it.support.stubshop.StubShop;

/**
 * Checks the shop tests themselves ({@link ShopWalk}) against {@link StubShop}, a minimal
 * implementation of the shop's URL contract, so that a failure of {@code SampleShopIT} points
 * at the shop rather than at the walk.
 */
class ShopContractStubIT {

  @TempDir Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theWalkPassesAgainstAStubOfTheContract(ContainerKind kind) throws Exception {
    Path dir = StubShop.webApp().writeUnder(apps, kind.name());
    try (WebContainer shop = kind.start(Deployment.of(dir).withContextPath("/shop"))) {
      ShopWalk walk = new ShopWalk(shop);
      walk.purchase();
      walk.confirmRefusedWhenAStepIsSkipped();
      walk.classificationMatchesTheContract(
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
              "confirm"));
    }
  }
}
