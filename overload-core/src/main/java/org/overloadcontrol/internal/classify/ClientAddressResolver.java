package org.overloadcontrol.internal.classify;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds the client's address behind trusted proxies, as Tomcat's {@code RemoteIpValve} does:
 * when the connection comes from a trusted proxy, {@code X-Forwarded-For} is read right to left,
 * skipping trusted proxies, and the first untrusted address is the client. A forwarded header
 * from a connection that is not a trusted proxy is ignored, so a client cannot choose its own
 * address by sending one.
 *
 * <p>The standard {@code Forwarded} header (RFC 7239) is read the same way, from the
 * {@code for=} parameter of each element, and wins over {@code X-Forwarded-For} when a trusted
 * proxy sent both (a proxy that speaks RFC 7239 may pass on an old header it did not write).
 * An obfuscated or {@code unknown} node, or an element without {@code for=}, stops the walk at
 * the last address that could be trusted, as garbage in {@code X-Forwarded-For} does.
 */
public final class ClientAddressResolver {

  private final AddressMatcher trustedProxies;

  public ClientAddressResolver(AddressMatcher trustedProxies) {
    this.trustedProxies = Objects.requireNonNull(trustedProxies, "trustedProxies");
  }

  /**
   * Whether any proxy is trusted: when none is, the connection's peer address is not needed to
   * tag a request, and an adapter can skip building it.
   */
  public boolean trustsAnyProxy() {
    return !trustedProxies.isEmpty();
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
    return walk(remoteAddress, List.of(forwardedFor.split(",")));
  }

  /**
   * The client's address, from {@code Forwarded} when a trusted proxy sent it, else from
   * {@code X-Forwarded-For}.
   *
   * @param remoteAddress the connection's peer address
   * @param forwarded the RFC 7239 {@code Forwarded} header (several joined by commas), or null
   * @param forwardedFor the X-Forwarded-For header, or null
   */
  public String resolve(String remoteAddress, String forwarded, String forwardedFor) {
    if (forwarded == null || forwarded.isBlank()) {
      return resolve(remoteAddress, forwardedFor);
    }
    if (!trustedProxies.matches(remoteAddress)) {
      return remoteAddress;
    }
    return walk(remoteAddress, forwardedFor(forwarded));
  }

  /** Reads hops right to left, past trusted proxies; stops at garbage. */
  private String walk(String remoteAddress, List<String> hops) {
    String candidate = remoteAddress;
    for (int i = hops.size() - 1; i >= 0; i--) {
      String hop = stripPort(hops.get(i).trim());
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

  /**
   * The {@code for=} node of each RFC 7239 element, in order. An element without one yields
   * "unknown" so that the walk stops there rather than skipping a hop it cannot see.
   */
  static List<String> forwardedFor(String forwarded) {
    List<String> nodes = new ArrayList<>();
    for (String element : splitOutsideQuotes(forwarded, ',')) {
      if (element.isBlank()) {
        continue;
      }
      String node = "unknown";
      for (String pair : splitOutsideQuotes(element, ';')) {
        int eq = pair.indexOf('=');
        if (eq > 0 && pair.substring(0, eq).trim().equalsIgnoreCase("for")) {
          node = unquote(pair.substring(eq + 1).trim());
        }
      }
      nodes.add(node.isEmpty() ? "unknown" : node);
    }
    return nodes;
  }

  private static List<String> splitOutsideQuotes(String text, char separator) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '\\' && quoted && i + 1 < text.length()) {
        current.append(c).append(text.charAt(++i));
        continue;
      }
      if (c == separator && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  private static String unquote(String value) {
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      return value.substring(1, value.length() - 1).replace("\\", "");
    }
    return value;
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
