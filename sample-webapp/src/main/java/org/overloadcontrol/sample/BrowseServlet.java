package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /browse?category=C}: the products of one category (LIFO-Pri Br-2, 300 ms). Without
 * a category it lists the categories; an unknown category is 404.
 */
@RequestClass(value = "browse", rank = 2, kind = RequestKind.BROWSING, utility = 22)
@ResponseTimeTarget("2s")
public class BrowseServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.BROWSE;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    Catalogue catalogue = shop().catalogue();
    String category = request.getParameter("category");
    if (category == null || category.isBlank()) {
      send(
          response,
          HttpServletResponse.SC_OK,
          newPage(request, "Categories").heading("Categories").categories(catalogue, false));
      return;
    }
    if (catalogue.inCategory(category).isEmpty()) {
      fail(
          request,
          response,
          HttpServletResponse.SC_NOT_FOUND,
          "No such category",
          "The shop has no category '" + category + "'.");
      return;
    }
    send(
        response,
        HttpServletResponse.SC_OK,
        newPage(request, category).heading(category).products(catalogue.inCategory(category)));
  }
}
