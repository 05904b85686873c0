package org.overloadcontrol.classify;

import java.util.Objects;

/**
 * Finds the client's address behind trusted proxies, as Tomcat's {@code RemoteIpValve} does:
 * when the connection comes from a trusted proxy, {@code X-Forwarded-For} is read right to left,
 * skipping trusted proxies, and the first untrusted address is the client. A forwarded header
 * from a connection that is not a trusted proxy is ignored, so a client cannot choose its own
 * address by sending one.
 */
public final class ClientAddressResolver {

  private final AddressMatcher trustedProxies;

  public ClientAddressResolver(AddressMatcher trustedProxies) {
    this.trustedProxies = Objects.requireNonNull(trustedProxies, "trustedProxies");
  }

  /** Whether the connection's peer is a configured trusted proxy. */
  public boolean isTrustedProxy(String remoteAddress) {
    return trustedProxies.matches(remoteAddress);
  }

  /**
   * The client's address.
   *
   * @param remoteAddress the connection's peer address
   * @param forwardedFor the X-Forwarded-For header (may hold several comma-separated lists
   *     joined), or null
   */
  public String resolve(String remoteAddress, String forwardedFor) {
    if (forwardedFor == null || !trustedProxies.matches(remoteAddress)) {
      return remoteAddress;
    }
    String[] hops = forwardedFor.split(",");
    String candidate = remoteAddress;
    for (int i = hops.length - 1; i >= 0; i--) {
      String hop = stripPort(hops[i].trim());
      if (hop.isEmpty()) {
        continue;
      }
      if (AddressMatcher.literal(hop) == null) {
        // Garbage in the chain: stop at the last address we could trust.
        return candidate;
      }
      candidate = hop;
      if (!trustedProxies.matches(hop)) {
        return hop;
      }
    }
    return candidate;
  }

  private static String stripPort(String hop) {
    if (hop.startsWith("[")) {
      int end = hop.indexOf(']');
      return end > 0 ? hop.substring(1, end) : hop;
    }
    int colon = hop.indexOf(':');
    if (colon > 0 && hop.indexOf(':', colon + 1) < 0) {
      return hop.substring(0, colon);
    }
    return hop;
  }
}
