package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /}: the home page (LIFO-Pri Br-1, 200 ms): the categories and one featured product
 * from each.
 */
@RequestClass(value = "home", rank = 1, kind = RequestKind.BROWSING, utility = 27)
@ResponseTimeTarget("2s")
public class HomeServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.HOME;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    Catalogue catalogue = shop().catalogue();
    PageWriter page =
        newPage(request, "Home")
            .heading("Gear for every trail")
            .paragraph("Browse a category, search the shop, or start with one of these.");
    page.categories(catalogue, true).html("<h2>Featured</h2>\n");
    page.products(
        catalogue.categories().stream().map(c -> catalogue.inCategory(c).get(0)).toList());
    send(response, HttpServletResponse.SC_OK, page);
  }
}
