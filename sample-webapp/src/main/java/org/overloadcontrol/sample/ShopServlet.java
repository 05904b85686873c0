package org.overloadcontrol.sample;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

/**
 * What every shop page does: find the {@link Shop}, spend its simulated database time, read the
 * shopper's {@link Purchase} from the session, and send an HTML page with Content-Length. The
 * servlets themselves only read parameters and pick what to show; the logic is in plain classes.
 */
abstract class ShopServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  /** Guards creating a session's purchase, so two first requests of a session share one. */
  private static final Object PURCHASE_CREATION = new Object();

  private transient Shop shop;

  /** Which page this servlet serves. */
  abstract ShopPage page();

  @Override
  public void init() throws ServletException {
    Object value = getServletContext().getAttribute(Shop.ATTRIBUTE);
    if (!(value instanceof Shop s)) {
      throw new ServletException(
          "the sample shop is not running: declare "
              + ShopListener.class.getName()
              + " as a listener in web.xml");
    }
    shop = s;
  }

  Shop shop() {
    return shop;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (request.getCharacterEncoding() == null) {
      request.setCharacterEncoding(StandardCharsets.UTF_8.name());
    }
    super.service(request, response);
  }

  /**
   * Holds a database connection for this page's service time. When none comes free in time
   * the shop answers 503 itself and this returns false; the caller then stops.
   */
  boolean work(HttpServletRequest request, HttpServletResponse response) throws IOException {
    try {
      shop.database().query(page().serviceTime(shop.settings().timeScale()));
      return true;
    } catch (Database.BusyException e) {
      busy(request, response, e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      busy(request, response, "interrupted while waiting for the database");
      return false;
    }
  }

  private void busy(HttpServletRequest request, HttpServletResponse response, String why)
      throws IOException {
    response.setHeader("Retry-After", "1");
    send(
        response,
        HttpServletResponse.SC_SERVICE_UNAVAILABLE,
        newPage(request, "Busy")
            .heading("The shop is busy")
            .html(
                "<p class=\"busy\">" + Html.escape(why) + ". Please try again in a moment.</p>\n"));
  }

  /** A page in the shop's layout, showing the shopper's cart count. */
  PageWriter newPage(HttpServletRequest request, String title) {
    Purchase purchase = existingPurchase(request);
    int items = purchase == null ? 0 : purchase.cart().itemCount();
    return new PageWriter(
        request.getContextPath(), page(), title, shop.catalogue().categories(), items);
  }

  /** The shopper's purchase, created (with a session) if there is none yet. */
  static Purchase purchase(HttpServletRequest request) {
    HttpSession session = request.getSession(true);
    Object value = session.getAttribute(Purchase.SESSION_ATTRIBUTE);
    if (value instanceof Purchase p) {
      return p;
    }
    synchronized (PURCHASE_CREATION) {
      value = session.getAttribute(Purchase.SESSION_ATTRIBUTE);
      if (value instanceof Purchase p) {
        return p;
      }
      Purchase created = new Purchase();
      session.setAttribute(Purchase.SESSION_ATTRIBUTE, created);
      return created;
    }
  }

  /** The shopper's purchase, or null without creating a session. */
  static Purchase existingPurchase(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object value = session == null ? null : session.getAttribute(Purchase.SESSION_ATTRIBUTE);
    return value instanceof Purchase p ? p : null;
  }

  /** Tells the container the purchase changed, for sessions that are persisted or replicated. */
  static void saved(HttpServletRequest request, Purchase purchase) {
    request.getSession(true).setAttribute(Purchase.SESSION_ATTRIBUTE, purchase);
  }

  /** A whole-number parameter; empty when missing or not a whole number. */
  static OptionalInt intParameter(HttpServletRequest request, String name) {
    String value = request.getParameter(name);
    if (value == null) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /**
   * The product named by the {@code id} parameter; empty after answering 400 (no number,
   * explained by {@code missingDetail}) or 404 (no such product).
   */
  java.util.Optional<Product> productParameter(
      HttpServletRequest request, HttpServletResponse response, String missingDetail)
      throws IOException {
    OptionalInt id = intParameter(request, "id");
    if (id.isEmpty()) {
      fail(request, response, HttpServletResponse.SC_BAD_REQUEST, "Which product?", missingDetail);
      return java.util.Optional.empty();
    }
    java.util.Optional<Product> product = shop().catalogue().product(id.getAsInt());
    if (product.isEmpty()) {
      fail(
          request,
          response,
          HttpServletResponse.SC_NOT_FOUND,
          "No such product",
          "The shop has no product number " + id.getAsInt() + ".");
    }
    return product;
  }

  /** Sends an error page in the shop's layout. */
  void fail(
      HttpServletRequest request,
      HttpServletResponse response,
      int status,
      String title,
      String message)
      throws IOException {
    send(
        response,
        status,
        newPage(request, title)
            .heading(title)
            .error(message)
            .html(
                "<p><a href=\""
                    + Html.escape(request.getContextPath() + "/")
                    + "\">Back to the shop</a></p>\n"));
  }

  /** Sends {@code page} with {@code status}, as UTF-8 with Content-Length, never cached. */
  static void send(HttpServletResponse response, int status, PageWriter page) throws IOException {
    byte[] body = page.render().getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("text/html;charset=UTF-8");
    response.setHeader("Cache-Control", "no-store");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
