package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * One form step of the checkout (sign in, shipping, payment): {@code GET} shows the step's
 * form; {@code POST} with the step's one field records it in the purchase and answers 200 with
 * the next step's page, or 400 with the form again when the field is blank. Each step holds a
 * database connection for its page's service time, like every page with one.
 */
abstract class CheckoutStepServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;

  /** The form field this step records ({@code user}, {@code address}, {@code card}). */
  abstract String field();

  /** What the page says when the field is blank. */
  abstract String missingMessage();

  /** This step's form page, with {@code error} above the form when it is not null. */
  abstract PageWriter form(HttpServletRequest request, String error);

  /** Records the field's value in the purchase. */
  abstract void record(Purchase purchase, String value);

  /** The page that follows a recorded step. */
  abstract PageWriter next(HttpServletRequest request, Purchase purchase);

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    send(response, HttpServletResponse.SC_OK, form(request, null));
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!work(request, response)) {
      return;
    }
    String value = request.getParameter(field());
    if (value == null || value.isBlank()) {
      send(response, HttpServletResponse.SC_BAD_REQUEST, form(request, missingMessage()));
      return;
    }
    Purchase purchase = purchase(request);
    record(purchase, value);
    saved(request, purchase);
    send(response, HttpServletResponse.SC_OK, next(request, purchase));
  }
}
