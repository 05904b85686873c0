package org.overloadcontrol.sample;

import java.io.Serializable;
import java.util.EnumSet;
import java.util.Set;

/**
 * One shopper's purchase in progress, kept in the HTTP session: the cart and the checkout steps
 * taken so far, and the id of the last order placed. It is the state machine of the shop's
 * multi-step transaction (LIFO-Pri, Singhmar et al. 2004, §2.1):
 *
 * <pre>
 *   cart (one or more adds) → login → shipping → payment → confirm
 * </pre>
 *
 * <p>Steps may be taken, and retaken, in any order, as a person going back in the browser
 * would; only {@link #confirm} checks that all of them were taken, and refuses with the list of
 * missing steps otherwise. A confirmed order empties the cart and forgets the shipping address
 * and payment details (the next order asks for them again); the login stays.
 *
 * <p>Concurrency: a browser may send several requests of one session at once, so every method
 * is synchronized; none of them blocks or takes long.
 */
public final class Purchase implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The session attribute under which the shop keeps a shopper's purchase. */
  public static final String SESSION_ATTRIBUTE = Purchase.class.getName();

  private final Cart cart = new Cart();
  private String user;
  private String address;
  private String card;
  private String lastOrderId;

  /** Adds one of {@code product} to the cart. */
  public synchronized void add(Product product) {
    cart.add(product);
  }

  /** A copy of the cart as it is now. */
  public synchronized Cart cart() {
    return cart.copy();
  }

  /** Records the login step. */
  public synchronized void login(String userName) {
    user = requireText(userName, "user");
  }

  /** Records the shipping step. */
  public synchronized void ship(String shippingAddress) {
    address = requireText(shippingAddress, "address");
  }

  /** Records the payment step. */
  public synchronized void pay(String cardNumber) {
    card = requireText(cardNumber, "card");
  }

  /** The signed-in user, or null. */
  public synchronized String user() {
    return user;
  }

  /** The shipping address, or null. */
  public synchronized String address() {
    return address;
  }

  /** The payment card with all but its last four characters hidden, or null. */
  public synchronized String maskedCard() {
    return card == null ? null : mask(card);
  }

  /** The id of the last order this session placed, or null. */
  public synchronized String lastOrderId() {
    return lastOrderId;
  }

  /** The steps not yet taken, in checkout order; empty when the purchase can be confirmed. */
  public synchronized Set<CheckoutStep> missingSteps() {
    Set<CheckoutStep> missing = EnumSet.noneOf(CheckoutStep.class);
    if (cart.isEmpty()) {
      missing.add(CheckoutStep.CART);
    }
    if (user == null) {
      missing.add(CheckoutStep.LOGIN);
    }
    if (address == null) {
      missing.add(CheckoutStep.SHIPPING);
    }
    if (card == null) {
      missing.add(CheckoutStep.PAYMENT);
    }
    return missing;
  }

  /**
   * Places the order if every step was taken: gives it the next id from {@code ids}, empties the
   * cart and forgets address and card. Otherwise changes nothing and says what is missing.
   */
  public synchronized Confirmation confirm(OrderIds ids) {
    Set<CheckoutStep> missing = missingSteps();
    if (!missing.isEmpty()) {
      return new Confirmation.Refused(missing);
    }
    Order order = new Order(ids.next(), user, address, mask(card), cart.lines(), cart.totalCents());
    cart.clear();
    address = null;
    card = null;
    lastOrderId = order.id();
    return new Confirmation.Placed(order);
  }

  /** The card with all but its last four characters replaced by '•'. */
  static String mask(String card) {
    String s = card.replaceAll("\\s+", "");
    int keep = Math.min(4, s.length());
    return "•".repeat(s.length() - keep) + s.substring(s.length() - keep);
  }

  private static String requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return value.trim();
  }

  /** The answer to a confirm: the order placed, or the steps that are still missing. */
  public sealed interface Confirmation {

    /** The order was placed. */
    record Placed(Order order) implements Confirmation {}

    /** Nothing was placed: {@code missing} steps come first. */
    record Refused(Set<CheckoutStep> missing) implements Confirmation {
      public Refused {
        missing = java.util.Collections.unmodifiableSet(EnumSet.copyOf(missing));
      }
    }
  }
}
