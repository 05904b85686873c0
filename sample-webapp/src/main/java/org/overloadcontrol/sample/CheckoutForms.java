package org.overloadcontrol.sample;

/**
 * The forms of the checkout steps, shared by the page that asks for a step and the page that
 * answers the step before it (a POST answers 200 with the next step's form, so each step of
 * the purchase is one request, as in the paper's model).
 */
final class CheckoutForms {

  private CheckoutForms() {}

  static PageWriter login(PageWriter page) {
    return page.form("/login", "user", "Your name", "e.g. alice", "Sign in");
  }

  static PageWriter shipping(PageWriter page) {
    return page.form(
        "/shipping",
        "address",
        "Shipping address",
        "1 Trail Road, Hill Town",
        "Continue to payment");
  }

  static PageWriter payment(PageWriter page) {
    return page.form("/payment", "card", "Card number", "4111 1111 1111 1111", "Review order");
  }

  /** The order as it stands, the steps still missing, and the "Place order" button. */
  static PageWriter review(PageWriter page, Purchase purchase) {
    page.cart(purchase.cart());
    if (purchase.user() != null) {
      page.paragraph("Customer: " + purchase.user());
    }
    if (purchase.address() != null) {
      page.paragraph("Ship to: " + purchase.address());
    }
    if (purchase.maskedCard() != null) {
      page.paragraph("Pay with card " + purchase.maskedCard());
    }
    missing(page, purchase.missingSteps());
    return page.html(
        "<form class=\"step\" method=\"post\" action=\""
            + page.link("/confirm")
            + "\"><button type=\"submit\">Place order</button></form>\n");
  }

  /** A list of the steps still to take, each linking to its page; nothing if none. */
  static PageWriter missing(PageWriter page, java.util.Set<CheckoutStep> missing) {
    if (missing.isEmpty()) {
      return page;
    }
    page.html("<ul class=\"missing\">\n");
    for (CheckoutStep step : missing) {
      page.html(
          "<li><a href=\""
              + page.link(step.path())
              + "\">"
              + Html.escape(step.todo())
              + "</a></li>\n");
    }
    return page.html("</ul>\n");
  }
}
