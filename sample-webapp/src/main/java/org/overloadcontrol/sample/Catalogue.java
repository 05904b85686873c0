package org.overloadcontrol.sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The shop's small in-memory catalogue: a few categories of products, looked up by id, listed by
 * category, and searched by name, description and category. Immutable and shared by all requests.
 *
 * <p>Search is the shop's degradable page: {@link #search(String, double)} takes a quality in
 * [0, 1] and shows all matches at 1.0 and a proportional, never empty, prefix below it.
 */
public final class Catalogue {

  private final Map<Integer, Product> byId;
  private final Map<String, List<Product>> byCategory;

  /** A catalogue of {@code products}; ids must be unique. */
  public Catalogue(List<Product> products) {
    Map<Integer, Product> ids = new LinkedHashMap<>();
    Map<String, List<Product>> categories = new LinkedHashMap<>();
    for (Product p : products) {
      if (ids.putIfAbsent(p.id(), p) != null) {
        throw new IllegalArgumentException("two products with id " + p.id());
      }
      categories.computeIfAbsent(p.category(), c -> new ArrayList<>()).add(p);
    }
    categories.replaceAll((c, list) -> List.copyOf(list));
    this.byId = Collections.unmodifiableMap(ids);
    this.byCategory = Collections.unmodifiableMap(categories);
  }

  /** The sample shop's catalogue: five categories of six products each. */
  public static Catalogue standard() {
    return new Catalogue(StandardProducts.all());
  }

  /** All products, in id order. */
  public List<Product> products() {
    return List.copyOf(byId.values());
  }

  /** The category names, in catalogue order. */
  public List<String> categories() {
    return List.copyOf(byCategory.keySet());
  }

  /** The product with {@code id}, if there is one. */
  public Optional<Product> product(int id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The products of {@code category}; empty if there is no such category. */
  public List<Product> inCategory(String category) {
    return byCategory.getOrDefault(category, List.of());
  }

  /**
   * The products whose name, description or category contain every word of {@code query}
   * (ignoring case), products whose name matches listed first; shows as many as
   * {@link #resultLimit} allows at {@code quality}. A blank query matches nothing.
   */
  public SearchResult search(String query, double quality) {
    String q = query == null ? "" : query.trim();
    String[] words = q.toLowerCase(Locale.ROOT).split("\\s+");
    List<Product> inName = new ArrayList<>();
    List<Product> elsewhere = new ArrayList<>();
    if (!q.isEmpty()) {
      for (Product p : byId.values()) {
        String name = p.name().toLowerCase(Locale.ROOT);
        String text =
            name
                + " "
                + p.description().toLowerCase(Locale.ROOT)
                + " "
                + p.category().toLowerCase(Locale.ROOT);
        boolean all = true;
        boolean allInName = true;
        for (String w : words) {
          all &= text.contains(w);
          allInName &= name.contains(w);
        }
        if (allInName) {
          inName.add(p);
        } else if (all) {
          elsewhere.add(p);
        }
      }
    }
    List<Product> matches = new ArrayList<>(inName);
    matches.addAll(elsewhere);
    int limit = resultLimit(matches.size(), quality);
    return new SearchResult(q, matches.subList(0, limit), matches.size());
  }

  /**
   * How many of {@code matchCount} matches a page at {@code quality} shows: all at 1.0,
   * {@code ceil(quality * matchCount)} below it, but at least one when anything matched, so a
   * degraded search still answers. Quality is clamped to [0, 1].
   */
  public static int resultLimit(int matchCount, double quality) {
    if (Double.isNaN(quality)) {
      throw new IllegalArgumentException("quality is not a number");
    }
    if (matchCount <= 0) {
      return 0;
    }
    if (quality >= 1.0) {
      return matchCount;
    }
    double q = Math.max(0.0, quality);
    return Math.max(1, Math.min(matchCount, (int) Math.ceil(q * matchCount)));
  }
}
