package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.engine.RequestKind;

/**
 * {@code GET /payment} shows the card form; {@code POST /payment} with {@code card=...} records
 * it (LIFO-Pri Tr-3, 500 ms) and answers 200 with the order review and its "Place order"
 * button, which posts to {@code /confirm}. A blank card is 400.
 */
@RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
@ResponseTimeTarget("1.5s")
public class PaymentServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.PAYMENT;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    send(response, HttpServletResponse.SC_OK,
        CheckoutForms.payment(newPage(request, "Payment").heading("Checkout: payment")));
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    String card = request.getParameter("card");
    if (card == null || card.isBlank()) {
      send(response, HttpServletResponse.SC_BAD_REQUEST, CheckoutForms.payment(
          newPage(request, "Payment").heading("Checkout: payment")
              .error("Please enter a card number.")));
      return;
    }
    Purchase purchase = purchase(request);
    purchase.pay(card);
    saved(request, purchase);
    send(response, HttpServletResponse.SC_OK,
        CheckoutForms.review(newPage(request, "Review").heading("Checkout: review"), purchase));
  }
}
