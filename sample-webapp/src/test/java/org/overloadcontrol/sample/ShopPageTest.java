package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ShopPageTest {

  @Test
  void serviceTimesAreThoseOfLifoPriTable2() {
    assertThat(ShopPage.HOME.serviceTime()).isEqualTo(Duration.ofMillis(200));
    assertThat(ShopPage.BROWSE.serviceTime()).isEqualTo(Duration.ofMillis(300));
    assertThat(ShopPage.SEARCH.serviceTime()).isEqualTo(Duration.ofMillis(300));
    assertThat(ShopPage.DETAILS.serviceTime()).isEqualTo(Duration.ofMillis(222));
    assertThat(ShopPage.LOGIN.serviceTime()).isEqualTo(Duration.ofMillis(280));
    assertThat(ShopPage.SHIPPING.serviceTime()).isEqualTo(Duration.ofMillis(420));
    assertThat(ShopPage.PAYMENT.serviceTime()).isEqualTo(Duration.ofMillis(500));
    assertThat(ShopPage.CONFIRM.serviceTime()).isEqualTo(Duration.ofMillis(300));
    assertThat(ShopPage.CART.serviceTime()).isZero();
    assertThat(ShopPage.IMAGES.serviceTime()).isZero();
  }

  @Test
  void scalesServiceTimes() {
    assertThat(ShopPage.DETAILS.serviceTime(0.1)).isEqualTo(Duration.ofNanos(22_200_000));
    assertThat(ShopPage.PAYMENT.serviceTime(2.0)).isEqualTo(Duration.ofSeconds(1));
    assertThat(ShopPage.CART.serviceTime(10.0)).isZero();
  }

  @Test
  void pageNamesAreTheServletAndClassNamesOfTheContract() {
    assertThat(java.util.Arrays.stream(ShopPage.values()).map(ShopPage::pageName))
        .containsExactly(
            "home",
            "browse",
            "search",
            "details",
            "login",
            "shipping",
            "payment",
            "confirm",
            "cart",
            "images");
  }
}
