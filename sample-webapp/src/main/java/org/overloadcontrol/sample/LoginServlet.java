package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.engine.RequestKind;

/**
 * {@code GET /login} shows the sign-in form; {@code POST /login} with {@code user=NAME} signs in
 * (LIFO-Pri Tr-1, 280 ms), the first step of the purchase, and answers 200 with the shipping
 * form. A blank user is 400. The shop keeps no passwords: it only needs a name for the order.
 */
@RequestClass(value = "login", rank = 5, kind = RequestKind.TRANSACTION, utility = 3650)
@ResponseTimeTarget("1.5s")
public class LoginServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.LOGIN;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    PageWriter page = newPage(request, "Sign in").heading("Checkout: sign in");
    Purchase purchase = existingPurchase(request);
    if (purchase == null || purchase.cart().isEmpty()) {
      page.paragraph("Your cart is empty; you can sign in now and shop afterwards.");
    }
    send(response, HttpServletResponse.SC_OK, CheckoutForms.login(page));
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    String user = request.getParameter("user");
    if (user == null || user.isBlank()) {
      send(response, HttpServletResponse.SC_BAD_REQUEST, CheckoutForms.login(
          newPage(request, "Sign in").heading("Checkout: sign in").error("Please enter a name.")));
      return;
    }
    Purchase purchase = purchase(request);
    purchase.login(user);
    saved(request, purchase);
    PageWriter page = newPage(request, "Shipping").heading("Checkout: shipping")
        .html("<p class=\"signed-in\">Signed in as " + Html.escape(purchase.user()) + ".</p>\n");
    send(response, HttpServletResponse.SC_OK, CheckoutForms.shipping(page));
  }
}
