package org.overloadcontrol.sample;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * One article of the sample shop's catalogue. Immutable; carts in the HTTP session keep a copy,
 * so it is {@link Serializable} for containers that persist or replicate sessions.
 *
 * @param id the number in {@code /product?id=N} and {@code /images/N.jpg}
 * @param name shown on every page that lists the product
 * @param category the {@code category} of {@code /browse?category=C}
 * @param description searched together with the name
 * @param priceCents the price in euro cents, so sums are exact
 */
public record Product(int id, String name, String category, String description, long priceCents)
    implements Serializable {

  public Product {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(description, "description");
    if (id <= 0) {
      throw new IllegalArgumentException("id must be positive, was " + id);
    }
    if (priceCents <= 0) {
      throw new IllegalArgumentException("priceCents must be positive, was " + priceCents);
    }
  }

  /** The price as people read it, such as {@code €12.50}. */
  public String price() {
    return formatCents(priceCents);
  }

  /** Formats an amount in cents as euros with two decimals. */
  public static String formatCents(long cents) {
    return String.format(Locale.ROOT, "€%d.%02d", cents / 100, cents % 100);
  }
}
