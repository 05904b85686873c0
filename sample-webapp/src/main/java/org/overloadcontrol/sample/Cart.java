package org.overloadcontrol.sample;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A shopper's cart: products and how many of each, in the order they were first added. Lives
 * in the HTTP session inside {@link Purchase}, which guards it: it is not thread-safe itself.
 */
public final class Cart implements Serializable {

  private static final long serialVersionUID = 1L;

  /** One product in the cart and its quantity. */
  public record Line(Product product, int quantity) implements Serializable {

    /** The price of the line: unit price times quantity. */
    public long totalCents() {
      return product.priceCents() * quantity;
    }
  }

  private final LinkedHashMap<Integer, Line> lines = new LinkedHashMap<>();

  /** Adds one of {@code product}. */
  public void add(Product product) {
    lines.merge(
        product.id(),
        new Line(product, 1),
        (old, one) -> new Line(old.product(), old.quantity() + 1));
  }

  /** The lines, in the order their products were first added. */
  public List<Line> lines() {
    return List.copyOf(lines.values());
  }

  /** How many items in all (the sum of the quantities). */
  public int itemCount() {
    return lines.values().stream().mapToInt(Line::quantity).sum();
  }

  /** The sum of all lines, in cents. */
  public long totalCents() {
    return lines.values().stream().mapToLong(Line::totalCents).sum();
  }

  public boolean isEmpty() {
    return lines.isEmpty();
  }

  void clear() {
    lines.clear();
  }

  Cart copy() {
    Cart c = new Cart();
    for (Map.Entry<Integer, Line> e : lines.entrySet()) {
      c.lines.put(e.getKey(), e.getValue());
    }
    return c;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    lines.values().forEach(l -> parts.add(l.quantity() + "x" + l.product().id()));
    return "Cart" + parts;
  }
}
