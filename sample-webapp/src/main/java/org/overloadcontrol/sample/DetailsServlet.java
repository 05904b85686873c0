package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /product?id=N}: one product's details (LIFO-Pri Br-4, 222 ms). A missing or
 * malformed id is 400, an unknown one 404.
 */
@RequestClass(value = "details", rank = 4, kind = RequestKind.BROWSING, utility = 73)
@ResponseTimeTarget("2s")
public class DetailsServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.DETAILS;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    var product =
        productParameter(
            request, response, "The address needs a product number, such as product?id=1.");
    if (product.isEmpty()) {
      return;
    }
    Product p = product.get();
    PageWriter page = newPage(request, p.name());
    page.html(
            "<article class=\"details\"><img src=\""
                + page.link("/images/" + p.id() + ".jpg")
                + "\" alt=\""
                + Html.escape(p.name())
                + "\" width=\""
                + ProductImages.WIDTH
                + "\" height=\""
                + ProductImages.HEIGHT
                + "\">\n<div>")
        .heading(p.name())
        .paragraph(p.description())
        .html(
            "<p class=\"price\">"
                + Html.escape(p.price())
                + "</p>\n"
                + page.addToCart(p)
                + "\n<p>More in <a href=\""
                + page.link("/browse?category=" + Html.url(p.category()))
                + "\">"
                + Html.escape(p.category())
                + "</a>.</p></div></article>\n");
    send(response, HttpServletResponse.SC_OK, page);
  }
}
