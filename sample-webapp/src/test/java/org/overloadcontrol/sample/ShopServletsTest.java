package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;

class ShopServletsTest {

  private final ServletHarness http = new ServletHarness();

  @Test
  void aFullPurchaseEndsWithTheOrderIdAndAnEmptyCart() throws Exception {
    assertThat(http.post(new CartServlet(), "id", "2").status()).isEqualTo(200);
    ServletHarness.Answer cart = http.post(new CartServlet(), "id", "2");
    assertThat(cart.shopPage()).isEqualTo("cart");
    assertThat(cart.text()).contains("Dome Tent").contains("€378.00").contains("Cart (2)");

    ServletHarness.Answer login = http.post(new LoginServlet(), "user", "alice");
    assertThat(login.status()).isEqualTo(200);
    assertThat(login.shopPage()).isEqualTo("login");
    assertThat(login.text()).contains("Signed in as alice").contains("action=\"/shop/shipping\"");

    ServletHarness.Answer shipping = http.post(new ShippingServlet(), "address", "1 Trail Road");
    assertThat(shipping.shopPage()).isEqualTo("shipping");
    assertThat(shipping.text()).contains("action=\"/shop/payment\"");

    ServletHarness.Answer payment = http.post(new PaymentServlet(), "card", "4111111111111111");
    assertThat(payment.shopPage()).isEqualTo("payment");
    assertThat(payment.text()).contains("action=\"/shop/confirm\"").contains("1111");

    ServletHarness.Answer confirm = http.post(new ConfirmServlet());
    assertThat(confirm.status()).isEqualTo(200);
    assertThat(confirm.shopPage()).isEqualTo("confirm");
    assertThat(confirm.text())
        .contains("<span id=\"order-id\">ORD-000001</span>")
        .contains("Cart (0)");

    // Each transaction page held a connection for its Table 2 time, scaled by 0.5.
    assertThat(http.databaseWork)
        .containsExactly(
            Duration.ofMillis(140),
            Duration.ofMillis(210),
            Duration.ofMillis(250),
            Duration.ofMillis(150));
    assertThat(http.post(new ConfirmServlet()).status()).isEqualTo(409);
  }

  @Test
  void confirmWithoutASessionIs409AndCreatesNone() throws Exception {
    ServletHarness.Answer answer = http.post(new ConfirmServlet());
    assertThat(answer.status()).isEqualTo(409);
    assertThat(answer.shopPage()).isEqualTo("confirm");
    assertThat(answer.text())
        .contains("put something in the cart")
        .contains("sign in")
        .contains("enter a shipping address")
        .contains("enter payment details");
    assertThat(http.hasSession()).isFalse();
  }

  @Test
  void confirmAfterSkippingPaymentIs409NamingOnlyPayment() throws Exception {
    http.post(new CartServlet(), "id", "1");
    http.post(new LoginServlet(), "user", "bob");
    http.post(new ShippingServlet(), "address", "2 Hill Road");
    ServletHarness.Answer answer = http.post(new ConfirmServlet());
    assertThat(answer.status()).isEqualTo(409);
    assertThat(answer.text())
        .contains("href=\"/shop/payment\"")
        .doesNotContain("href=\"/shop/login\"")
        .doesNotContain("href=\"/shop/shipping\"");
    // Refused, not lost: paying now completes the order with the same cart.
    http.post(new PaymentServlet(), "card", "1234");
    ServletHarness.Answer placed = http.post(new ConfirmServlet());
    assertThat(placed.status()).isEqualTo(200);
    assertThat(placed.text()).contains("id=\"order-id\"").contains("€129.00");
  }

  @Test
  void badInputIsAnsweredWithAClearPage() throws Exception {
    assertThat(http.post(new CartServlet(), "id", "x").status()).isEqualTo(400);
    assertThat(http.post(new CartServlet(), "id", "99").status()).isEqualTo(404);
    assertThat(http.post(new LoginServlet(), "user", " ").status()).isEqualTo(400);
    assertThat(http.get(new DetailsServlet(), null, "id", "99").status()).isEqualTo(404);
    assertThat(http.get(new DetailsServlet(), null).status()).isEqualTo(400);
    assertThat(http.get(new BrowseServlet(), null, "category", "boats").status()).isEqualTo(404);
  }

  @Test
  void browsingPagesNameThemselvesAndDoTheirDatabaseWork() throws Exception {
    assertThat(http.get(new HomeServlet(), null).shopPage()).isEqualTo("home");
    assertThat(http.get(new BrowseServlet(), null, "category", "tents").text())
        .contains("Ridge Tent")
        .contains("src=\"/shop/images/1.jpg\"");
    ServletHarness.Answer search = http.get(new SearchServlet(), null, "q", "wool");
    assertThat(search.shopPage()).isEqualTo("search");
    assertThat(search.text()).contains("Wool Socks").doesNotContain("class=\"degraded\"");
    assertThat(http.get(new DetailsServlet(), null, "id", "3").shopPage()).isEqualTo("details");
    assertThat(http.get(new CartServlet(), null).shopPage()).isEqualTo("cart");
    assertThat(http.databaseWork)
        .containsExactly(
            Duration.ofMillis(100),
            Duration.ofMillis(150),
            Duration.ofMillis(150),
            Duration.ofMillis(111));
    // Browsing creates no session; only the cart and the checkout do.
    assertThat(http.hasSession()).isFalse();
  }

  @Test
  void searchServesFewerResultsWithTheDegradedNoteAtTheRequestsQuality() throws Exception {
    OverloadContext context = mock(OverloadContext.class);
    when(context.quality()).thenReturn(0.5);
    http.overloadContext = context;
    ServletHarness.Answer search = http.get(new SearchServlet(), null, "q", "tent");
    int matches = Catalogue.standard().search("tent", 1.0).matchCount();
    assertThat(matches).isGreaterThan(1);
    int shown = (int) Math.ceil(0.5 * matches);
    assertThat(search.text())
        .contains(
            "<p class=\"degraded\">The shop is busy: showing "
                + shown
                + " of "
                + matches
                + " results.</p>");
  }

  @Test
  void theHomePageLinksTheOverloadDashboard() throws Exception {
    assertThat(http.get(new HomeServlet(), null).text())
        .contains("<a href=\"/shop/overload/\">Overload dashboard</a>");
  }

  @Test
  void imagesAreServedWithTypeAndLength() throws Exception {
    ServletHarness.Answer image = http.get(new ImageServlet(), "/2.jpg");
    assertThat(image.status()).isEqualTo(200);
    assertThat(image.headers())
        .containsEntry("Content-Type", "image/jpeg")
        .containsEntry("Content-Length", String.valueOf(image.body().length));
    assertThat(image.body()).isEqualTo(http.shop.images().jpeg(2).orElseThrow());
    assertThat(http.get(new ImageServlet(), "/2.png").status()).isEqualTo(404);
    assertThat(http.get(new ImageServlet(), "/99.jpg").status()).isEqualTo(404);
    assertThat(http.get(new ImageServlet(), null).status()).isEqualTo(404);
    assertThat(http.databaseWork).isEmpty();
  }

  @Test
  void aBusyDatabaseIsA503FromTheShopItself() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Database pool =
        new Database(
            1,
            Duration.ZERO,
            d -> {
              holding.countDown();
              release.await();
            });
    ServletHarness busy = new ServletHarness(pool);
    Thread holder =
        new Thread(
            () -> {
              try {
                pool.query(Duration.ofMillis(1));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    holder.start();
    try {
      assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

      ServletHarness.Answer answer = busy.get(new HomeServlet(), null);

      assertThat(answer.status()).isEqualTo(503);
      assertThat(answer.headers()).containsEntry("Retry-After", "1");
      assertThat(answer.shopPage()).isEqualTo("home");
      assertThat(answer.text()).contains("class=\"busy\"");
    } finally {
      release.countDown();
      holder.join(10_000);
    }
    assertThat(pool.inUseCount()).isZero();
  }
}
