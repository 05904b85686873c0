package org.overloadcontrol.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.it.support.Browser.Page;

/**
 * The sample shop's URL contract walked by one user, with the checks of issue 6: every page
 * served and marked, a full purchase (cart, login, shipping, payment, confirm) ending with an
 * order id, confirm refused with 409 when a step was skipped, images with real bytes, and the
 * filter's classification of each page matching the contract's classes (LIFO-Pri, Singhmar et
 * al. 2004, Tables 2 and 3). Used against the real WAR and against a stub of the contract.
 */
public final class ShopWalk {

  /** The class each page must be given: name, rank, kind and utility of the contract. */
  public record ExpectedClass(String name, int rank, String kind, double utility) {}

  /** Endpoint (servlet name) to expected class, from the contract's table. */
  public static final Map<String, ExpectedClass> CONTRACT = contract();

  private static final Pattern CATEGORY_LINK = Pattern.compile("browse\\?category=([^\"&]+)");
  private static final Pattern PRODUCT_LINK = Pattern.compile("product\\?id=(\\d+)");

  private final WebContainer container;

  public ShopWalk(WebContainer container) {
    this.container = container;
  }

  /** Visits every page, buys one product, and returns the order id shown. */
  public String purchase() throws Exception {
    Browser user = new Browser(container.baseUri());
    Page home = expectPage(user.get(""), "home");
    String category = first(CATEGORY_LINK, home.body()).orElse("books");
    Page browse = expectPage(user.get("browse?category=" + category), "browse");
    Page search = expectPage(user.get("search?q=a"), "search");
    String product =
        first(PRODUCT_LINK, browse.body()).or(() -> first(PRODUCT_LINK, search.body())).orElse("1");
    expectPage(user.get("product?id=" + product), "details");

    HttpResponse<byte[]> image = user.getBytes("images/" + product + ".jpg");
    assertThat(image.statusCode()).as("image status").isEqualTo(200);
    assertThat(image.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("image/jpeg"));
    assertThat(image.headers().firstValueAsLong("Content-Length"))
        .hasValue((long) image.body().length);
    assertThat(image.body().length).as("image bytes").isGreaterThan(1024);
    assertThat(image.body()[0] & 0xFF).as("JPEG magic").isEqualTo(0xFF);
    assertThat(image.body()[1] & 0xFF).as("JPEG magic").isEqualTo(0xD8);

    expectOk(user.post("cart", Map.of("id", product)), "add to cart");
    expectPage(user.get("cart"), "cart");
    expectPage(user.get("login"), "login");
    expectOk(user.post("login", Map.of("user", "alice")), "login");
    expectPage(user.get("shipping"), "shipping");
    expectOk(user.post("shipping", Map.of("address", "1 Queue Street, Littleton")), "shipping");
    expectPage(user.get("payment"), "payment");
    expectOk(user.post("payment", Map.of("card", "4111111111111111")), "payment");
    Page confirmed = expectPage(user.post("confirm", Map.of()), "confirm");
    String orderId =
        confirmed
            .orderId()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "confirm page has no <span id=\"order-id\">: " + confirmed.body()));
    assertThat(orderId).isNotBlank();

    // Confirm emptied the cart: the same confirm again lacks a step.
    assertThat(user.post("confirm", Map.of()).status()).as("confirm twice").isEqualTo(409);
    return orderId;
  }

  /** Confirm without payment, and in a fresh session, must answer 409 Conflict. */
  public void confirmRefusedWhenAStepIsSkipped() throws Exception {
    Browser fresh = new Browser(container.baseUri());
    Page nothing = fresh.post("confirm", Map.of());
    assertThat(nothing.status()).as("confirm in a fresh session").isEqualTo(409);

    Browser hasty = new Browser(container.baseUri());
    expectOk(hasty.post("cart", Map.of("id", "1")), "add to cart");
    expectOk(hasty.post("login", Map.of("user", "bob")), "login");
    expectOk(hasty.post("shipping", Map.of("address", "2 Queue Street")), "shipping");
    Page skipped = hasty.post("confirm", Map.of());
    assertThat(skipped.status()).as("confirm without payment").isEqualTo(409);
    assertThat(skipped.body()).as("a page that says why").isNotBlank();
  }

  /** Every page the walk visited was classified by the filter as the contract says. */
  public void classificationMatchesTheContract(List<String> endpoints) {
    List<EngineProbe.RouteView> routes = EngineProbe.read(container.servletContext());
    assertThat(routes).as("the filter's engine in the servlet context").isNotEmpty();
    Map<String, ExpectedClass> seen = new LinkedHashMap<>();
    for (EngineProbe.RouteView s : routes) {
      assertThat(
              seen.put(
                  s.endpoint(),
                  new ExpectedClass(s.requestClass(), s.rank(), s.kind(), s.utility())))
          .as("endpoint %s has one class", s.endpoint())
          .isNull();
      assertThat(s.arrivalCount()).as("requests the filter saw at %s", s.endpoint()).isPositive();
    }
    for (String endpoint : endpoints) {
      assertThat(seen).as("classified endpoints").containsEntry(endpoint, CONTRACT.get(endpoint));
    }
  }

  private static Page expectPage(Page page, String shopPage) {
    assertThat(page.status()).as("status of %s (%s)", page.uri(), shopPage).isEqualTo(200);
    assertThat(page.shopPage()).as("shop-page marker of %s", page.uri()).hasValue(shopPage);
    return page;
  }

  private static Page expectOk(Page page, String step) {
    assertThat(page.status()).as("%s answered at %s", step, page.uri()).isEqualTo(200);
    return page;
  }

  private static Optional<String> first(Pattern p, String text) {
    Matcher m = p.matcher(text);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static Map<String, ExpectedClass> contract() {
    Map<String, ExpectedClass> m = new LinkedHashMap<>();
    m.put("home", new ExpectedClass("home", 1, "BROWSING", 27));
    m.put("browse", new ExpectedClass("browse", 2, "BROWSING", 22));
    m.put("search", new ExpectedClass("search", 3, "BROWSING", 36));
    m.put("details", new ExpectedClass("details", 4, "BROWSING", 73));
    m.put("login", new ExpectedClass("login", 5, "TRANSACTION", 3650));
    m.put("shipping", new ExpectedClass("shipping", 6, "TRANSACTION", 4050));
    m.put("payment", new ExpectedClass("payment", 7, "TRANSACTION", 4500));
    m.put("confirm", new ExpectedClass("confirm", 8, "TRANSACTION", 5000));
    m.put("cart", new ExpectedClass("cart", 4, "TRANSACTION", 3000));
    m.put("images", new ExpectedClass("images", 0, "BROWSING", 1));
    return Map.copyOf(m);
  }
}
