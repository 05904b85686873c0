package org.overloadcontrol.internal.bandwidth;

import java.util.Objects;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.ClassRule.NameValue;
import org.overloadcontrol.internal.classify.RequestAttributes;

/**
 * Which requests belong to a client group: by client address (IP literals and CIDR blocks, the
 * paper's "IP address or subnet", Li &amp; Jamin §IV), by a header, or by a cookie. Every
 * condition that is set must hold; a rule with none set matches nothing. The client address is
 * the one the adapter resolved through trusted proxies, so a spoofed forwarded header cannot
 * move a client into a better group.
 */
public final class GroupRule {

  private final AddressMatcher clients;
  private final NameValue header;
  private final NameValue cookie;

  /**
   * @param clients address blocks, or {@link AddressMatcher#none()} for no address condition
   * @param header a {@code Name} or {@code Name=value} condition, or null
   * @param cookie a {@code Name} or {@code Name=value} condition, or null
   */
  public GroupRule(AddressMatcher clients, NameValue header, NameValue cookie) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.header = header;
    this.cookie = cookie;
  }

  /** Whether no condition is set (the rule matches nothing). */
  public boolean isEmpty() {
    return clients.isEmpty() && header == null && cookie == null;
  }

  /** Whether every condition that is set holds for {@code request}. */
  public boolean matches(RequestAttributes request) {
    if (isEmpty()) {
      return false;
    }
    if (!clients.isEmpty() && !clients.matches(request.clientAddress())) {
      return false;
    }
    if (header != null && !matches(header, request.header(header.name()))) {
      return false;
    }
    return cookie == null || matches(cookie, request.cookie(cookie.name()));
  }

  private static boolean matches(NameValue condition, String actual) {
    return actual != null && (condition.value() == null || condition.value().equals(actual));
  }

  @Override
  public String toString() {
    return "GroupRule{clients=" + clients + ", header=" + header + ", cookie=" + cookie + "}";
  }
}
