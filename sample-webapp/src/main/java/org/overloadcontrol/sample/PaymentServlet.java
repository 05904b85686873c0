package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /payment} shows the card form; {@code POST /payment} with {@code card=...} records
 * it (LIFO-Pri Tr-3, 500 ms) and answers 200 with the order review and its "Place order"
 * button, which posts to {@code /confirm}. A blank card is 400.
 */
@RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
@ResponseTimeTarget("1.5s")
public class PaymentServlet extends CheckoutStepServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.PAYMENT;
  }

  @Override
  String field() {
    return "card";
  }

  @Override
  String missingMessage() {
    return "Please enter a card number.";
  }

  @Override
  PageWriter form(HttpServletRequest request, String error) {
    PageWriter page = newPage(request, "Payment").heading("Checkout: payment");
    if (error != null) {
      page.error(error);
    }
    return CheckoutForms.payment(page);
  }

  @Override
  void record(Purchase purchase, String value) {
    purchase.pay(value);
  }

  @Override
  PageWriter next(HttpServletRequest request, Purchase purchase) {
    return CheckoutForms.review(newPage(request, "Review").heading("Checkout: review"), purchase);
  }
}
