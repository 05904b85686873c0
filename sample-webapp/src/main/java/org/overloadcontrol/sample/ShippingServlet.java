package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /shipping} shows the address form; {@code POST /shipping} with {@code address=...}
 * records it (LIFO-Pri Tr-2, 420 ms) and answers 200 with the payment form. A blank address is
 * 400.
 */
@RequestClass(value = "shipping", rank = 6, kind = RequestKind.TRANSACTION, utility = 4050)
@ResponseTimeTarget("1.5s")
public class ShippingServlet extends CheckoutStepServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.SHIPPING;
  }

  @Override
  String field() {
    return "address";
  }

  @Override
  String missingMessage() {
    return "Please enter an address.";
  }

  @Override
  PageWriter form(HttpServletRequest request, String error) {
    PageWriter page = newPage(request, "Shipping").heading("Checkout: shipping");
    if (error != null) {
      page.error(error);
    }
    return CheckoutForms.shipping(page);
  }

  @Override
  void record(Purchase purchase, String value) {
    purchase.ship(value);
  }

  @Override
  PageWriter next(HttpServletRequest request, Purchase purchase) {
    return CheckoutForms.payment(
        newPage(request, "Payment")
            .heading("Checkout: payment")
            .html(
                "<p class=\"ship-to\">Shipping to " + Html.escape(purchase.address()) + ".</p>\n"));
  }
}
