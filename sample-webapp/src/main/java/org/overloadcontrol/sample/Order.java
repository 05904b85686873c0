package org.overloadcontrol.sample;

import java.io.Serializable;
import java.util.List;

/**
 * A confirmed order: what was bought, by whom, where it goes, how it was paid.
 *
 * @param id the order id shown on the confirmation page
 * @param maskedCard the payment card with all but its last four characters hidden
 */
public record Order(
    String id,
    String user,
    String address,
    String maskedCard,
    List<Cart.Line> lines,
    long totalCents)
    implements Serializable {

  public Order {
    lines = List.copyOf(lines);
  }
}
