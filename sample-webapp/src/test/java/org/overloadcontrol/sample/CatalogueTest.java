package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CatalogueTest {

  private final Catalogue catalogue = Catalogue.standard();

  @Test
  void standardCatalogueHasFiveCategoriesOfSixProductsNumberedFromOne() {
    assertThat(catalogue.categories())
        .containsExactly("tents", "backpacks", "footwear", "clothing", "cooking");
    assertThat(catalogue.products()).hasSize(30);
    assertThat(catalogue.products())
        .extracting(Product::id)
        .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, 30).boxed().toList());
    for (String c : catalogue.categories()) {
      assertThat(catalogue.inCategory(c)).hasSize(6).allMatch(p -> p.category().equals(c));
    }
  }

  @Test
  void looksUpProductsById() {
    assertThat(catalogue.product(1)).get().extracting(Product::name).isEqualTo("Ridge Tent");
    assertThat(catalogue.product(31)).isEmpty();
    assertThat(catalogue.product(0)).isEmpty();
    assertThat(catalogue.inCategory("boats")).isEmpty();
  }

  @Test
  void refusesTwoProductsWithOneId() {
    Product a = new Product(1, "A", "c", "d", 100);
    Product b = new Product(1, "B", "c", "d", 200);
    assertThatThrownBy(() -> new Catalogue(List.of(a, b)))
        .hasMessageContaining("two products with id 1");
  }

  @Test
  void searchMatchesEveryWordInNameDescriptionOrCategoryIgnoringCase() {
    SearchResult wool = catalogue.search("WOOL", 1.0);
    assertThat(wool.shown())
        .extracting(Product::name)
        .containsExactly("Wool Socks", "Merino Base Layer");
    assertThat(wool.matchCount()).isEqualTo(2);
    assertThat(wool.degraded()).isFalse();

    // Both words, anywhere: "boots" in the gaiters' description counts.
    assertThat(catalogue.search("waterproof boot", 1.0).shown())
        .extracting(Product::name)
        .containsExactly("Hiking Boot", "Gaiters");
    assertThat(catalogue.search("cooking", 1.0).matchCount()).isEqualTo(6);
    assertThat(catalogue.search("  tent  ", 1.0).query()).isEqualTo("tent");
  }

  @Test
  void searchListsNameMatchesBeforeDescriptionMatches() {
    // "tent" is in four names; the tarp and the bivy bag match only through their category.
    SearchResult tent = catalogue.search("tent", 1.0);
    assertThat(tent.shown())
        .extracting(Product::name)
        .containsExactly(
            "Ridge Tent", "Dome Tent", "Tunnel Tent", "Family Tent", "Ultralight Tarp", "Bivy Bag");
  }

  @Test
  void blankOrUnmatchedSearchFindsNothing() {
    assertThat(catalogue.search("", 1.0).matchCount()).isZero();
    assertThat(catalogue.search(null, 1.0).shown()).isEmpty();
    assertThat(catalogue.search("kayak", 1.0).matchCount()).isZero();
    assertThat(catalogue.search("kayak", 0.1).degraded()).isFalse();
  }

  @Test
  void lowerQualityShowsFewerResultsAndSaysItIsDegraded() {
    SearchResult full = catalogue.search("tent", 1.0);
    SearchResult half = catalogue.search("tent", 0.5);
    SearchResult least = catalogue.search("tent", 0.0);
    assertThat(full.matchCount()).isEqualTo(6);
    assertThat(full.shown()).hasSize(6);
    assertThat(half.shown()).hasSize(3).containsExactlyElementsOf(full.shown().subList(0, 3));
    assertThat(half.degraded()).isTrue();
    assertThat(half.matchCount()).isEqualTo(6);
    assertThat(least.shown()).hasSize(1);
  }

  @Test
  void resultLimitIsAllAtFullQualityAProportionBelowAndNeverEmpty() {
    assertThat(Catalogue.resultLimit(10, 1.0)).isEqualTo(10);
    assertThat(Catalogue.resultLimit(10, 1.5)).isEqualTo(10);
    assertThat(Catalogue.resultLimit(10, 0.95)).isEqualTo(10);
    assertThat(Catalogue.resultLimit(10, 0.31)).isEqualTo(4);
    assertThat(Catalogue.resultLimit(10, 0.1)).isEqualTo(1);
    assertThat(Catalogue.resultLimit(10, 0.0)).isEqualTo(1);
    assertThat(Catalogue.resultLimit(10, -1.0)).isEqualTo(1);
    assertThat(Catalogue.resultLimit(0, 0.5)).isZero();
    assertThatThrownBy(() -> Catalogue.resultLimit(10, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void formatsPricesInEuroCents() {
    assertThat(catalogue.product(1).orElseThrow().price()).isEqualTo("€129.00");
    assertThat(Product.formatCents(1205)).isEqualTo("€12.05");
  }
}
