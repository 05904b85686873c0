package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /login} shows the sign-in form; {@code POST /login} with {@code user=NAME} signs in
 * (LIFO-Pri Tr-1, 280 ms), the first step of the purchase, and answers 200 with the shipping
 * form. A blank user is 400. The shop keeps no passwords: it only needs a name for the order.
 */
@RequestClass(value = "login", rank = 5, kind = RequestKind.TRANSACTION, utility = 3650)
@ResponseTimeTarget("1.5s")
public class LoginServlet extends CheckoutStepServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.LOGIN;
  }

  @Override
  String field() {
    return "user";
  }

  @Override
  String missingMessage() {
    return "Please enter a name.";
  }

  @Override
  PageWriter form(HttpServletRequest request, String error) {
    PageWriter page = newPage(request, "Sign in").heading("Checkout: sign in");
    if (error != null) {
      page.error(error);
    } else {
      Purchase purchase = existingPurchase(request);
      if (purchase == null || purchase.cart().isEmpty()) {
        page.paragraph("Your cart is empty; you can sign in now and shop afterwards.");
      }
    }
    return CheckoutForms.login(page);
  }

  @Override
  void record(Purchase purchase, String value) {
    purchase.login(value);
  }

  @Override
  PageWriter next(HttpServletRequest request, Purchase purchase) {
    return CheckoutForms.shipping(
        newPage(request, "Shipping")
            .heading("Checkout: shipping")
            .html(
                "<p class=\"signed-in\">Signed in as " + Html.escape(purchase.user()) + ".</p>\n"));
  }
}
