package org.overloadcontrol.it.load;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The request types the load generator sends to the sample shop (the shop's URL contract): the
 * eight pages of the LIFO-Pri e-commerce model (Singhmar et al. 2004, Figure 1 and Table 2),
 * plus the cart, which a purchase fills before it logs in.
 */
public enum ShopRequest {
  HOME("GET", true, 200),
  BROWSE("GET", true, 300),
  SEARCH("GET", true, 300),
  DETAILS("GET", true, 222),
  LOGIN("POST", false, 280),
  SHIPPING("POST", false, 420),
  PAYMENT("POST", false, 500),
  CONFIRM("POST", false, 300),
  /**
   * Adds a product to the cart; no database work. Not a state of the Markov chain: the first
   * half of the step to login, so not counted with the browsing pages.
   */
  CART("POST", false, 0);

  /** The eight pages of the Markov chain, in the paper's order (Br-1..Br-4, Tr-1..Tr-4). */
  public static final List<ShopRequest> PAGES =
      List.of(HOME, BROWSE, SEARCH, DETAILS, LOGIN, SHIPPING, PAYMENT, CONFIRM);

  private static final String[] CATEGORIES = {
    "tents", "backpacks", "footwear", "clothing", "cooking"
  };
  private static final String[] WORDS = {"tent", "light", "wool", "stove", "boot", "pack"};
  private static final int PRODUCT_COUNT = 30;

  private final String method;
  private final boolean browsing;
  private final int serviceMillis;

  ShopRequest(String method, boolean browsing, int serviceMillis) {
    this.method = method;
    this.browsing = browsing;
    this.serviceMillis = serviceMillis;
  }

  public String method() {
    return method;
  }

  /** One of the four browsing pages (Br-1..Br-4), as LIFO-Pri's Table 4 groups them. */
  public boolean browsing() {
    return browsing;
  }

  /** Mean service time at time scale 1 (LIFO-Pri Table 2); 0 for the cart. */
  public int serviceMillis() {
    return serviceMillis;
  }

  /** The servlet (= endpoint and class) name in the shop. */
  public String endpoint() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Path and query relative to the context root, without the leading slash. */
  public String relativePath(SplittableRandom random) {
    return switch (this) {
      case HOME -> "";
      case BROWSE -> "browse?category=" + CATEGORIES[random.nextInt(CATEGORIES.length)];
      case SEARCH -> "search?q=" + WORDS[random.nextInt(WORDS.length)];
      case DETAILS -> "product?id=" + (1 + random.nextInt(PRODUCT_COUNT));
      case LOGIN -> "login";
      case SHIPPING -> "shipping";
      case PAYMENT -> "payment";
      case CONFIRM -> "confirm";
      case CART -> "cart";
    };
  }

  /**
   * The request type a path within the shop's context belongs to ({@code ""} or {@code "/"} is
   * home), or empty for anything else (images, the stylesheet, the dashboard).
   */
  public static java.util.Optional<ShopRequest> fromPath(String pathInContext) {
    String p = pathInContext.isEmpty() ? "/" : pathInContext;
    return switch (p) {
      case "/" -> java.util.Optional.of(HOME);
      case "/browse" -> java.util.Optional.of(BROWSE);
      case "/search" -> java.util.Optional.of(SEARCH);
      case "/product" -> java.util.Optional.of(DETAILS);
      case "/login" -> java.util.Optional.of(LOGIN);
      case "/shipping" -> java.util.Optional.of(SHIPPING);
      case "/payment" -> java.util.Optional.of(PAYMENT);
      case "/confirm" -> java.util.Optional.of(CONFIRM);
      case "/cart" -> java.util.Optional.of(CART);
      default -> java.util.Optional.empty();
    };
  }

  /** The form fields of a POST ({@code name, value} pairs); empty for a GET. */
  public String[] form(SplittableRandom random, long sessionId) {
    return switch (this) {
      case LOGIN -> new String[] {"user", "user" + sessionId};
      case SHIPPING -> new String[] {"address", sessionId + " Trail Road"};
      case PAYMENT -> new String[] {"card", "4111-" + sessionId};
      case CART -> new String[] {"id", Integer.toString(1 + random.nextInt(PRODUCT_COUNT))};
      default -> new String[0];
    };
  }
}
