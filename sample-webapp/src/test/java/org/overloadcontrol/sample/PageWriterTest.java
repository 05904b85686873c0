package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PageWriterTest {

  private PageWriter page(ShopPage shopPage) {
    return new PageWriter("/shop", shopPage, "Title", List.of("tents", "cooking"), 3);
  }

  @Test
  void everyPageNamesItselfAndLinksWithTheContextPath() {
    String html = page(ShopPage.SEARCH).render();
    assertThat(html)
        .contains("<meta name=\"shop-page\" content=\"search\">")
        .contains("href=\"/shop/shop.css\"")
        .contains("href=\"/shop/browse?category=tents\"")
        .contains("action=\"/shop/search\"")
        .contains("Cart (3)")
        .contains("<a href=\"/shop/overload/\">Overload dashboard</a>");
  }

  @Test
  void theDegradedNoteAppearsOnlyOnADegradedPage() {
    assertThat(page(ShopPage.SEARCH).render()).doesNotContain("class=\"degraded\"");
    assertThat(page(ShopPage.SEARCH).degraded("showing 3 of 6").render())
        .contains("<p class=\"degraded\">showing 3 of 6</p>");
  }

  @Test
  void escapesTextFromTheRequest() {
    String html = page(ShopPage.SEARCH).heading("<script>\"x\" & 'y'</script>").render();
    assertThat(html)
        .contains("&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;")
        .doesNotContain("<script>");
  }
}
