package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.engine.RequestKind;

/**
 * {@code GET /shipping} shows the address form; {@code POST /shipping} with {@code address=...}
 * records it (LIFO-Pri Tr-2, 420 ms) and answers 200 with the payment form. A blank address is
 * 400.
 */
@RequestClass(value = "shipping", rank = 6, kind = RequestKind.TRANSACTION, utility = 4050)
@ResponseTimeTarget("1.5s")
public class ShippingServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.SHIPPING;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    send(response, HttpServletResponse.SC_OK,
        CheckoutForms.shipping(newPage(request, "Shipping").heading("Checkout: shipping")));
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    String address = request.getParameter("address");
    if (address == null || address.isBlank()) {
      send(response, HttpServletResponse.SC_BAD_REQUEST, CheckoutForms.shipping(
          newPage(request, "Shipping").heading("Checkout: shipping")
              .error("Please enter an address.")));
      return;
    }
    Purchase purchase = purchase(request);
    purchase.ship(address);
    saved(request, purchase);
    PageWriter page = newPage(request, "Payment").heading("Checkout: payment")
        .html("<p class=\"ship-to\">Shipping to " + Html.escape(purchase.address()) + ".</p>\n");
    send(response, HttpServletResponse.SC_OK, CheckoutForms.payment(page));
  }
}
