package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /search?q=TEXT}: products whose name, description or category contain the words
 * (LIFO-Pri Br-3, 300 ms). The degradable page: at a quality below 1.0 it shows fewer results,
 * with a {@code <p class="degraded">} note saying so. Under overload its quality falls to 0.2
 * (a fifth of the results) before admission control starts rejecting searches.
 */
@Degradable(minQuality = 0.2)
@RequestClass(value = "search", rank = 3, kind = RequestKind.BROWSING, utility = 36)
@ResponseTimeTarget("2s")
public class SearchServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  @Override
  ShopPage page() {
    return ShopPage.SEARCH;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    String query = request.getParameter("q");
    if (query == null || query.isBlank()) {
      send(
          response,
          HttpServletResponse.SC_OK,
          newPage(request, "Search")
              .heading("Search")
              .paragraph(
                  "Type a word such as 'tent', 'wool' or 'waterproof' into the search box."));
      return;
    }
    SearchResult result = shop().catalogue().search(query, Quality.of(request));
    PageWriter page =
        newPage(request, "Search: " + result.query())
            .heading("Results for \u201c" + result.query() + "\u201d");
    if (result.degraded()) {
      page.degraded(
          "The shop is busy: showing "
              + result.shown().size()
              + " of "
              + result.matchCount()
              + " results.");
    }
    if (result.matchCount() == 0) {
      page.paragraph("Nothing matched. Try a shorter or different word.");
    } else {
      page.html("<p class=\"count\">" + result.matchCount() + " products found.</p>\n")
          .products(result.shown());
    }
    send(response, HttpServletResponse.SC_OK, page);
  }
}
