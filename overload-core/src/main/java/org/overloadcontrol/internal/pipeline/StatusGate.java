package org.overloadcontrol.internal.pipeline;

import java.util.function.Predicate;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.ClientAddressResolver;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.metrics.StatusAccess;

/**
 * Who may read the status, metrics and dashboard: the {@code status.} section's access rule
 * ({@link StatusAccess}) applied to the client the trusted proxies' headers name, decided once
 * for the servlet and the Jetty status handler alike.
 */
public final class StatusGate {

  private final StatusAccess access;
  private final ClientAddressResolver clients;

  private StatusGate(StatusAccess access, ClientAddressResolver clients) {
    this.access = access;
    this.clients = clients;
  }

  /**
   * The rule of a running engine: its {@code status.} keys, or the given parameters where set,
   * with its trusted proxies.
   *
   * @throws OverloadConfigException naming the parameter when it is not an address list
   */
  public static StatusGate of(Observability observability, String allowParam, String roleParam) {
    return new StatusGate(
        StatusAccess.from(observability.statusSection(), allowParam, roleParam),
        new ClientAddressResolver(observability.engine().config().trustedProxies()));
  }

  /**
   * The rule before an engine runs: the parameters alone, and no proxy is trusted.
   *
   * @throws OverloadConfigException naming the parameter when it is not an address list
   */
  public static StatusGate withoutEngine(String allowParam, String roleParam) {
    return new StatusGate(
        StatusAccess.from(ConfigSection.empty("status"), allowParam, roleParam),
        new ClientAddressResolver(AddressMatcher.none()));
  }

  /**
   * Whether a request from {@code peer}, with these forwarding headers (null when absent), may
   * read the status; {@code inRole} says whether its user is in a role.
   */
  public boolean allows(
      String peer, String forwarded, String forwardedFor, Predicate<String> inRole) {
    boolean viaProxyHeaders = forwarded != null || forwardedFor != null;
    boolean trusted = clients.isTrustedProxy(peer);
    String client = clients.resolve(peer, forwarded, forwardedFor);
    return access.allows(peer, client, viaProxyHeaders && !trusted, inRole);
  }
}
