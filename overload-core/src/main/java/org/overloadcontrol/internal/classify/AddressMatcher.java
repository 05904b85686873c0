package org.overloadcontrol.internal.classify;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Matches client addresses against a list of IP literals and CIDR blocks ({@code 10.0.0.0/8},
 * {@code 2001:db8::/32}), IPv4 and IPv6. Only literals are accepted, so parsing never causes a
 * DNS look-up; an IPv4-mapped IPv6 address matches its IPv4 block.
 */
public final class AddressMatcher {

  private static final AddressMatcher NONE = new AddressMatcher(List.of(), "");

  private final List<Block> blocks;
  private final String source;

  private record Block(byte[] network, int prefixBits) {
    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      int full = prefixBits / 8;
      for (int i = 0; i < full; i++) {
        if (address[i] != network[i]) {
          return false;
        }
      }
      int rest = prefixBits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = 0xFF << (8 - rest) & 0xFF;
      return (address[full] & mask) == (network[full] & mask);
    }
  }

  private AddressMatcher(List<Block> blocks, String source) {
    this.blocks = blocks;
    this.source = source;
  }

  /** A matcher that matches nothing. */
  public static AddressMatcher none() {
    return NONE;
  }

  /**
   * Parses addresses and CIDR blocks.
   *
   * @throws IllegalArgumentException naming the entry that is not an IP literal or block
   */
  public static AddressMatcher parse(List<String> entries) {
    List<Block> blocks = new ArrayList<>();
    for (String raw : entries) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int slash = entry.indexOf('/');
      String host = slash < 0 ? entry : entry.substring(0, slash);
      byte[] bytes = literal(host);
      if (bytes == null) {
        throw new IllegalArgumentException(
            "'"
                + entry
                + "' is not an IP address or CIDR block"
                + " (for example 10.0.0.0/8, 192.168.1.7 or 2001:db8::/32)");
      }
      int maxBits = bytes.length * 8;
      int bits = maxBits;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(entry.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > maxBits) {
          throw new IllegalArgumentException(
              "'" + entry + "' has a prefix length outside 0.." + maxBits);
        }
      }
      blocks.add(new Block(bytes, bits));
    }
    return new AddressMatcher(List.copyOf(blocks), String.join(",", entries));
  }

  /** Whether {@code address} (an IP literal) lies in one of the blocks; false for null. */
  public boolean matches(String address) {
    if (blocks.isEmpty() || address == null) {
      return false;
    }
    byte[] bytes = literal(address);
    if (bytes == null) {
      return false;
    }
    for (Block b : blocks) {
      if (b.contains(bytes)) {
        return true;
      }
    }
    return false;
  }

  public boolean isEmpty() {
    return blocks.isEmpty();
  }

  /**
   * The address bytes of an IP literal, IPv4-mapped IPv6 folded to IPv4; null if
   * {@code text} is not a literal. Checks the characters first so that a host name never
   * reaches {@link InetAddress#getByName}, which would resolve it.
   */
  static byte[] literal(String text) {
    String s = text.trim();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1);
    }
    if (s.isEmpty()) {
      return null;
    }
    boolean v6 = s.indexOf(':') >= 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= '0' && c <= '9')
              || c == '.'
              || (v6 && (c == ':' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '%'));
      if (!ok) {
        return null;
      }
    }
    if (!v6) {
      // Parsed here: InetAddress takes "999.1.1.1" for a host name and asks the resolver.
      return ipv4(s);
    }
    // With a ':' InetAddress parses an IPv6 literal or fails; it never resolves.
    try {
      byte[] bytes = InetAddress.getByName(s).getAddress();
      if (bytes.length == 16 && isV4Mapped(bytes)) {
        return Arrays.copyOfRange(bytes, 12, 16);
      }
      return bytes;
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** Four decimal parts of 0 to 255, no leading zero (it would read as octal elsewhere). */
  private static byte[] ipv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')) {
        return null;
      }
      int value = Integer.parseInt(p);
      if (value > 255) {
        return null;
      }
      bytes[i] = (byte) value;
    }
    return bytes;
  }

  private static boolean isV4Mapped(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == (byte) 0xFF && b[11] == (byte) 0xFF;
  }

  @Override
  public String toString() {
    return source;
  }
}
