package org.overloadcontrol.internal.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * Who may read {@code /overload/*}: the status, metrics and dashboard tell an outsider how to
 * overload the service, so they are refused to remote addresses unless allowed.
 *
 * <p>A request is allowed when its client is on the loopback interface, or in the {@code allow}
 * list (IP literals and CIDR blocks), or the authenticated user has {@code role}. The client is
 * the connection's peer, or, when the peer is a configured trusted proxy, the address the
 * {@code Forwarded}/{@code X-Forwarded-For} chain gives. A request that carries such a header
 * through a peer that is not a trusted proxy is judged as coming from an unknown address and is
 * allowed only by role or by an allow list that names the peer: a reverse proxy on the same host
 * must not turn every outside visitor into "loopback".
 *
 * <p>Settings: the servlet's init-params {@code allow} and {@code role} win over the
 * {@code status.allow} and {@code status.role} configuration keys.
 */
public final class StatusAccess {

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = MetricsKeyTable.STATUS;
  private static final AddressMatcher LOOPBACK =
      AddressMatcher.parse(List.of("127.0.0.0/8", "::1"));

  private final AddressMatcher allow;
  private final String role;

  public StatusAccess(AddressMatcher allow, String role) {
    this.allow = allow;
    this.role = role == null || role.isBlank() ? null : role.trim();
  }

  /**
   * The access rules from the {@code status.} section, each overridden by the servlet
   * init-param of the same name when that is not null.
   *
   * @throws OverloadConfigException naming the key and the entry
   */
  public static StatusAccess from(ConfigSection section, String allowParam, String roleParam) {
    section.requireOnly(KEYS);
    AddressMatcher allow;
    if (allowParam != null) {
      try {
        allow = parseList(allowParam);
      } catch (IllegalArgumentException e) {
        throw OverloadConfigException.of(
            "allow", allowParam, "init-param of the status servlet", e.getMessage());
      }
    } else {
      allow = section.parse("allow", StatusAccess::parseList, AddressMatcher.none());
    }
    String role = roleParam != null ? roleParam : section.get("role");
    return new StatusAccess(allow, role);
  }

  private static AddressMatcher parseList(String v) {
    return AddressMatcher.parse(Arrays.asList(v.split("[,\\s]+")));
  }

  /**
   * Whether a request may read the status.
   *
   * @param peerAddress the connection's peer
   * @param clientAddress the client as resolved through trusted proxies (the peer when none)
   * @param forwardedByUntrusted the request carries forwarding headers but its peer is not a
   *     trusted proxy, so its real client is unknown
   * @param inRole whether the authenticated user has a role
   */
  public boolean allows(
      String peerAddress,
      String clientAddress,
      boolean forwardedByUntrusted,
      Predicate<String> inRole) {
    if (role != null && inRole.test(role)) {
      return true;
    }
    if (forwardedByUntrusted) {
      return allow.matches(peerAddress) && !LOOPBACK.matches(peerAddress);
    }
    return LOOPBACK.matches(clientAddress) || allow.matches(clientAddress);
  }

  /** The allow list as configured, for messages. */
  public String allowList() {
    return allow.toString();
  }

  /** The role that grants access, or null. */
  public String role() {
    return role;
  }
}
