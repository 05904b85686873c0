package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /cart} shows the cart; {@code POST /cart} with {@code id=N} adds one of product N
 * and answers 200 with the cart page. Not a page of the paper's model: it does no database work
 * and has no response-time target. A missing or malformed id is 400, an unknown one 404.
 */
@RequestClass(value = "cart", rank = 4, kind = RequestKind.TRANSACTION, utility = 3000)
public class CartServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.CART;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Purchase purchase = existingPurchase(request);
    show(request, response, purchase == null ? new Cart() : purchase.cart(), null);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    var product =
        productParameter(request, response, "Adding to the cart needs a product number (id=N).");
    if (product.isEmpty()) {
      return;
    }
    Purchase purchase = purchase(request);
    purchase.add(product.get());
    saved(request, purchase);
    show(request, response, purchase.cart(), "Added " + product.get().name() + ".");
  }

  private void show(
      HttpServletRequest request, HttpServletResponse response, Cart cart, String added)
      throws IOException {
    PageWriter page = newPage(request, "Cart").heading("Your cart");
    if (added != null) {
      page.html("<p class=\"added\">" + Html.escape(added) + "</p>\n");
    }
    page.cart(cart);
    if (!cart.isEmpty()) {
      page.html("<p><a class=\"button\" href=\"" + page.link("/login") + "\">Checkout</a></p>\n");
    }
    send(response, HttpServletResponse.SC_OK, page);
  }
}
