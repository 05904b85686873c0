package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PurchaseTest {

  private final Catalogue catalogue = Catalogue.standard();
  private final OrderIds ids = new OrderIds();
  private final Product tent = catalogue.product(1).orElseThrow();
  private final Product socks = catalogue.product(18).orElseThrow();

  @Test
  void cartCountsRepeatedAddsAndKeepsFirstAddOrder() {
    Cart cart = new Cart();
    cart.add(socks);
    cart.add(tent);
    cart.add(socks);
    assertThat(cart.lines())
        .extracting(l -> l.product().id(), Cart.Line::quantity)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(18, 2), org.assertj.core.groups.Tuple.tuple(1, 1));
    assertThat(cart.itemCount()).isEqualTo(3);
    assertThat(cart.totalCents()).isEqualTo(2 * 2400 + 12900);
  }

  @Test
  void aFreshPurchaseMissesEveryStep() {
    Purchase purchase = new Purchase();
    assertThat(purchase.missingSteps())
        .containsExactly(
            CheckoutStep.CART, CheckoutStep.LOGIN, CheckoutStep.SHIPPING, CheckoutStep.PAYMENT);
    assertThat(purchase.confirm(ids)).isInstanceOf(Purchase.Confirmation.Refused.class);
  }

  @Test
  void aCompletePurchaseIsPlacedWithTheNextOrderIdAndEmptiesTheCart() {
    Purchase purchase = complete(new Purchase());

    Purchase.Confirmation result = purchase.confirm(ids);

    assertThat(result).isInstanceOf(Purchase.Confirmation.Placed.class);
    Order order = ((Purchase.Confirmation.Placed) result).order();
    assertThat(order.id()).isEqualTo("ORD-000001");
    assertThat(order.user()).isEqualTo("alice");
    assertThat(order.address()).isEqualTo("1 Trail Road");
    assertThat(order.maskedCard()).isEqualTo("••••••••••••1111");
    assertThat(order.totalCents()).isEqualTo(12900 + 2400);
    assertThat(order.lines()).hasSize(2);
    assertThat(purchase.lastOrderId()).isEqualTo("ORD-000001");
    assertThat(purchase.cart().isEmpty()).isTrue();
    // The login stays; the next order asks for address and card again.
    assertThat(purchase.user()).isEqualTo("alice");
    assertThat(purchase.missingSteps())
        .containsExactly(CheckoutStep.CART, CheckoutStep.SHIPPING, CheckoutStep.PAYMENT);
  }

  @Test
  void confirmingTwiceIsRefusedTheSecondTime() {
    Purchase purchase = complete(new Purchase());
    purchase.confirm(ids);
    Purchase.Confirmation again = purchase.confirm(ids);
    assertThat(again).isInstanceOf(Purchase.Confirmation.Refused.class);
    assertThat(purchase.lastOrderId()).isEqualTo("ORD-000001");
  }

  @ParameterizedTest
  @EnumSource(CheckoutStep.class)
  void confirmIsRefusedWhenAnyOneStepWasSkippedAndChangesNothing(CheckoutStep skipped) {
    Purchase purchase = new Purchase();
    step(CheckoutStep.CART, skipped, () -> purchase.add(tent));
    step(CheckoutStep.LOGIN, skipped, () -> purchase.login("alice"));
    step(CheckoutStep.SHIPPING, skipped, () -> purchase.ship("1 Trail Road"));
    step(CheckoutStep.PAYMENT, skipped, () -> purchase.pay("4111 1111 1111 1111"));
    int itemsBefore = purchase.cart().itemCount();

    Purchase.Confirmation result = purchase.confirm(ids);

    assertThat(result).isInstanceOf(Purchase.Confirmation.Refused.class);
    assertThat(((Purchase.Confirmation.Refused) result).missing()).containsExactly(skipped);
    assertThat(purchase.cart().itemCount()).isEqualTo(itemsBefore);
    assertThat(purchase.lastOrderId()).isNull();
    // No id was used up by the refusal.
    assertThat(ids.next()).isEqualTo("ORD-000001");
  }

  @Test
  void stepsMayBeTakenInAnyOrderAndRetaken() {
    Purchase purchase = new Purchase();
    purchase.pay("1234");
    purchase.ship("old address");
    purchase.login("bob");
    purchase.add(socks);
    purchase.ship("new address");
    Purchase.Confirmation result = purchase.confirm(ids);
    assertThat(((Purchase.Confirmation.Placed) result).order().address()).isEqualTo("new address");
  }

  @Test
  void blankStepInputsAreRefused() {
    Purchase purchase = new Purchase();
    assertThatThrownBy(() -> purchase.login(" ")).hasMessageContaining("user");
    assertThatThrownBy(() -> purchase.ship(null)).hasMessageContaining("address");
    assertThatThrownBy(() -> purchase.pay("")).hasMessageContaining("card");
    assertThat(purchase.missingSteps())
        .contains(CheckoutStep.LOGIN, CheckoutStep.SHIPPING, CheckoutStep.PAYMENT);
  }

  @Test
  void cartReturnedIsACopy() {
    Purchase purchase = new Purchase();
    purchase.add(tent);
    purchase.cart().add(socks);
    assertThat(purchase.cart().itemCount()).isEqualTo(1);
  }

  @Test
  void masksAllButTheLastFourCharacters() {
    assertThat(Purchase.mask("4111 1111 1111 1234")).isEqualTo("••••••••••••1234");
    assertThat(Purchase.mask("12")).isEqualTo("12");
  }

  @Test
  void orderIdsCountUp() {
    assertThat(ids.next()).isEqualTo("ORD-000001");
    assertThat(ids.next()).isEqualTo("ORD-000002");
  }

  @Test
  void survivesSessionSerialization() throws Exception {
    Purchase purchase = complete(new Purchase());
    var bytes = new java.io.ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(purchase);
    }
    Purchase copy;
    try (var in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (Purchase) in.readObject();
    }
    assertThat(copy.missingSteps()).isEmpty();
    assertThat(copy.cart().itemCount()).isEqualTo(2);
  }

  private Purchase complete(Purchase purchase) {
    purchase.add(tent);
    purchase.add(socks);
    purchase.login("alice");
    purchase.ship("1 Trail Road");
    purchase.pay("4111 1111 1111 1111");
    return purchase;
  }

  private static void step(CheckoutStep step, CheckoutStep skipped, Runnable action) {
    if (step != skipped) {
      action.run();
    }
  }
}
