package org.overloadcontrol.sample;

import static org.overloadcontrol.sample.Html.escape;
import static org.overloadcontrol.sample.Html.url;

import java.util.List;

/**
 * Writes one of the shop's HTML pages: the shared layout (header with categories, search box and
 * cart, footer with the overload dashboard link), the {@code <meta name="shop-page">} that names
 * the page for tests, the {@code <p class="degraded">} note when the page was served degraded,
 * and fragments the pages share. Links are prefixed with the context path.
 */
final class PageWriter {

  private final String base;
  private final ShopPage page;
  private final String title;
  private final List<String> categories;
  private final int cartItemCount;
  private final StringBuilder main = new StringBuilder(2048);
  private String degradedNote;

  /**
   * @param contextPath the web application's context path ("" at the root)
   * @param cartItemCount shown in the header; 0 when the shopper has no cart yet
   */
  PageWriter(
      String contextPath, ShopPage page, String title, List<String> categories, int cartItemCount) {
    this.base = contextPath;
    this.page = page;
    this.title = title;
    this.categories = categories;
    this.cartItemCount = cartItemCount;
  }

  /** A path inside the shop, made absolute with the context path. */
  String link(String path) {
    return escape(base + path);
  }

  /** Marks the page as served degraded, with a note for the reader. */
  PageWriter degraded(String note) {
    this.degradedNote = note;
    return this;
  }

  /** Appends HTML to the page's main part; the caller escapes what needs escaping. */
  PageWriter html(String fragment) {
    main.append(fragment);
    return this;
  }

  /** Appends a heading. */
  PageWriter heading(String text) {
    return html("<h1>" + escape(text) + "</h1>\n");
  }

  /** Appends a paragraph of text. */
  PageWriter paragraph(String text) {
    return html("<p>" + escape(text) + "</p>\n");
  }

  /** Appends an error message in the page's error style. */
  PageWriter error(String text) {
    return html("<p class=\"error\">" + escape(text) + "</p>\n");
  }

  /** Appends a grid of product cards, each with picture, price and add-to-cart button. */
  PageWriter products(List<Product> products) {
    main.append("<ul class=\"products\">\n");
    for (Product p : products) {
      main.append("<li class=\"product\"><a href=\"")
          .append(link("/product?id=" + p.id()))
          .append("\"><img src=\"")
          .append(link("/images/" + p.id() + ".jpg"))
          .append("\" alt=\"\" width=\"")
          .append(ProductImages.WIDTH)
          .append("\" height=\"")
          .append(ProductImages.HEIGHT)
          .append("\"><span class=\"name\">")
          .append(escape(p.name()))
          .append("</span></a><span class=\"price\">")
          .append(escape(p.price()))
          .append("</span>")
          .append(addToCart(p))
          .append("</li>\n");
    }
    main.append("</ul>\n");
    return this;
  }

  /** A small form that adds one of {@code p} to the cart. */
  String addToCart(Product p) {
    return "<form method=\"post\" action=\""
        + link("/cart")
        + "\"><input type=\"hidden\""
        + " name=\"id\" value=\""
        + p.id()
        + "\"><button type=\"submit\">Add to cart</button>"
        + "</form>";
  }

  /** Appends the cart's lines and total as a table, or a note that it is empty. */
  PageWriter cart(Cart cart) {
    if (cart.isEmpty()) {
      return html("<p class=\"empty\">Your cart is empty.</p>\n");
    }
    main.append("<table class=\"cart\">\n<tr><th>Product</th><th>Qty</th><th>Price</th></tr>\n");
    for (Cart.Line line : cart.lines()) {
      main.append("<tr><td><a href=\"")
          .append(link("/product?id=" + line.product().id()))
          .append("\">")
          .append(escape(line.product().name()))
          .append("</a></td><td>")
          .append(line.quantity())
          .append("</td><td>")
          .append(escape(Product.formatCents(line.totalCents())))
          .append("</td></tr>\n");
    }
    main.append("<tr class=\"total\"><td>Total</td><td>")
        .append(cart.itemCount())
        .append("</td><td>")
        .append(escape(Product.formatCents(cart.totalCents())))
        .append("</td></tr>\n</table>\n");
    return this;
  }

  /** Appends a one-field form posting to {@code path}. */
  PageWriter form(String path, String field, String label, String placeholder, String button) {
    return html(
        "<form class=\"step\" method=\"post\" action=\""
            + link(path)
            + "\">"
            + "<label for=\""
            + field
            + "\">"
            + escape(label)
            + "</label>"
            + "<input id=\""
            + field
            + "\" name=\""
            + field
            + "\" required placeholder=\""
            + escape(placeholder)
            + "\"><button type=\"submit\">"
            + escape(button)
            + "</button></form>\n");
  }

  /** The complete page. */
  String render() {
    StringBuilder out = new StringBuilder(main.length() + 2048);
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"shop-page\" content=\"")
        .append(page.pageName())
        .append("\">\n")
        .append("<title>")
        .append(escape(title))
        .append(" · Overload Outfitters</title>\n")
        .append("<link rel=\"stylesheet\" href=\"")
        .append(link("/shop.css"))
        .append("\">\n")
        .append("</head>\n<body>\n<header>\n<a class=\"brand\" href=\"")
        .append(link("/"))
        .append("\">Overload Outfitters</a>\n<nav>");
    for (String c : categories) {
      out.append("<a href=\"")
          .append(link("/browse?category=" + url(c)))
          .append("\">")
          .append(escape(c))
          .append("</a> ");
    }
    out.append("</nav>\n<form class=\"search\" method=\"get\" action=\"")
        .append(link("/search"))
        .append(
            "\"><input name=\"q\" type=\"search\" placeholder=\"Search the shop\""
                + " aria-label=\"Search\"><button type=\"submit\">Search</button></form>\n")
        .append("<a class=\"cart-link\" href=\"")
        .append(link("/cart"))
        .append("\">Cart (")
        .append(cartItemCount)
        .append(")</a>\n</header>\n<main>\n");
    if (degradedNote != null) {
      out.append("<p class=\"degraded\">").append(escape(degradedNote)).append("</p>\n");
    }
    out.append(main)
        .append(
            "</main>\n<footer>\n<p>A sample shop for overload-control: every"
                + " page waits for a simulated database. <a href=\"")
        .append(link("/overload/"))
        .append("\">Overload dashboard</a></p>\n</footer>\n</body>\n</html>\n");
    return out.toString();
  }

  /** The category links, each with its product count when {@code withCounts}. */
  PageWriter categories(Catalogue catalogue, boolean withCounts) {
    html("<ul class=\"categories\">\n");
    for (String c : catalogue.categories()) {
      html(
          "<li><a href=\""
              + link("/browse?category=" + url(c))
              + "\">"
              + escape(c)
              + "</a>"
              + (withCounts ? " (" + catalogue.inCategory(c).size() + ")" : "")
              + "</li>\n");
    }
    return html("</ul>\n");
  }
}
