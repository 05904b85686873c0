package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code POST /confirm} places the order (LIFO-Pri Tr-4, 300 ms): 200 with the order id in
 * {@code <span id="order-id">}, the cart emptied; or 409 Conflict, listing what is missing,
 * when the cart is empty or login, shipping or payment was skipped in this session.
 */
@RequestClass(value = "confirm", rank = 8, kind = RequestKind.TRANSACTION, utility = 5000)
@ResponseTimeTarget("1.5s")
public class ConfirmServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.CONFIRM;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    Purchase purchase = existingPurchase(request);
    // Without a session nothing was done yet; refuse without creating one.
    Purchase.Confirmation result =
        purchase == null
            ? new Purchase().confirm(shop().orderIds())
            : purchase.confirm(shop().orderIds());
    if (result instanceof Purchase.Confirmation.Placed placed) {
      saved(request, purchase);
      Order order = placed.order();
      PageWriter page =
          newPage(request, "Order placed")
              .heading("Thank you!")
              .html(
                  "<p class=\"order\">Your order <span id=\"order-id\">"
                      + Html.escape(order.id())
                      + "</span> is on its way to "
                      + Html.escape(order.address())
                      + ".</p>\n")
              .html(
                  "<p>Total "
                      + Html.escape(Product.formatCents(order.totalCents()))
                      + ", paid with card "
                      + Html.escape(order.maskedCard())
                      + ".</p>\n")
              .html(
                  "<p><a href=\""
                      + Html.escape(request.getContextPath() + "/")
                      + "\">Continue shopping</a></p>\n");
      send(response, HttpServletResponse.SC_OK, page);
      return;
    }
    Purchase.Confirmation.Refused refused = (Purchase.Confirmation.Refused) result;
    PageWriter page =
        newPage(request, "Cannot place the order")
            .heading("The order cannot be placed yet")
            .error("Some checkout steps are missing. Please:");
    send(response, HttpServletResponse.SC_CONFLICT, CheckoutForms.missing(page, refused.missing()));
  }
}
