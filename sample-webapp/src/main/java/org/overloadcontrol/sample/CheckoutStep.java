package org.overloadcontrol.sample;

/**
 * The steps a purchase must have taken before it can be confirmed, in their order: the
 * multi-step transaction of the LIFO-Pri e-commerce model (Singhmar et al. 2004, §2.1, Fig. 1:
 * a filled cart, then login, shipping and payment, then confirm).
 */
public enum CheckoutStep {
  CART("put something in the cart", "/"),
  LOGIN("sign in", "/login"),
  SHIPPING("enter a shipping address", "/shipping"),
  PAYMENT("enter payment details", "/payment");

  private final String todo;
  private final String path;

  CheckoutStep(String todo, String path) {
    this.todo = todo;
    this.path = path;
  }

  /** What the shopper still has to do, for the page that refuses a confirm. */
  public String todo() {
    return todo;
  }

  /** The page (relative to the context path) where this step is taken. */
  public String path() {
    return path;
  }
}
