package org.overloadcontrol.internal.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressResolverTest {

  final ClientAddressResolver resolver =
      new ClientAddressResolver(AddressMatcher.parse(List.of("10.0.0.0/8", "2001:db8::/32")));

  @Test
  void xForwardedForIsReadRightToLeftPastTrustedProxies() {
    assertThat(resolver.resolve("10.0.0.1", "198.51.100.7, 10.1.1.1")).isEqualTo("198.51.100.7");
    assertThat(resolver.resolve("10.0.0.1", "203.0.113.9, 198.51.100.7"))
        .isEqualTo("198.51.100.7"); // the first untrusted hop, not the left-most claim
    assertThat(resolver.resolve("10.0.0.1", null)).isEqualTo("10.0.0.1");
  }

  @Test
  void aSpoofedXForwardedForFromAnUntrustedPeerIsIgnored() {
    assertThat(resolver.resolve("198.51.100.7", "10.9.9.9")).isEqualTo("198.51.100.7");
    assertThat(resolver.resolve("198.51.100.7", "10.9.9.9", "10.9.9.9")).isEqualTo("198.51.100.7");
  }

  @Test
  void forwardedIsReadFromItsForParameters() {
    assertThat(resolver.resolve("10.0.0.1", "for=198.51.100.7;proto=https, for=10.2.2.2", null))
        .isEqualTo("198.51.100.7");
    assertThat(resolver.resolve("10.0.0.1", "For=\"[2001:db8:cafe::17]:4711\"", null))
        .isEqualTo("2001:db8:cafe::17"); // trusted all the way: the left-most, as for XFF
    assertThat(resolver.resolve("10.0.0.1", "for=\"[2600::17]:4711\";by=10.0.0.1", null))
        .isEqualTo("2600::17");
    assertThat(resolver.resolve("10.0.0.1", "for=192.0.2.60:8080", null)).isEqualTo("192.0.2.60");
  }

  @Test
  void forwardedWinsOverXForwardedForFromATrustedProxy() {
    assertThat(resolver.resolve("10.0.0.1", "for=198.51.100.7", "203.0.113.9"))
        .isEqualTo("198.51.100.7");
    assertThat(resolver.resolve("10.0.0.1", "  ", "203.0.113.9")).isEqualTo("203.0.113.9");
  }

  @Test
  void aSpoofedForwardedFromAnUntrustedPeerIsIgnored() {
    // A client claims to be a trusted address to land in a better group.
    assertThat(resolver.resolve("198.51.100.7", "for=10.9.9.9", null)).isEqualTo("198.51.100.7");
  }

  @Test
  void aSpoofedHopBeforeATrustedProxyDoesNotBuyTheClientAnotherAddress() {
    // The client sent "Forwarded: for=10.9.9.9"; the trusted proxy appended its peer.
    assertThat(resolver.resolve("10.0.0.1", "for=10.9.9.9, for=198.51.100.7", null))
        .isEqualTo("198.51.100.7");
  }

  @Test
  void obfuscatedOrUnknownNodesStopTheWalk() {
    assertThat(resolver.resolve("10.0.0.1", "for=198.51.100.7, for=_hidden, for=10.2.2.2", null))
        .isEqualTo("10.2.2.2");
    assertThat(resolver.resolve("10.0.0.1", "for=198.51.100.7, for=unknown", null))
        .isEqualTo("10.0.0.1");
    assertThat(resolver.resolve("10.0.0.1", "for=198.51.100.7, proto=http", null))
        .isEqualTo("10.0.0.1");
  }

  @Test
  void onlyIpv4LiteralsParseAsIpv4AndNothingElseReachesTheResolver() {
    assertThat(AddressMatcher.literal("10.0.0.255")).containsExactly(10, 0, 0, (byte) 255);
    for (String notALiteral :
        new String[] {
          "999.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1..2.3", "256.0.0.1", "1.2.3.4444"
        }) {
      assertThat(AddressMatcher.literal(notALiteral)).as(notALiteral).isNull();
    }
    assertThat(AddressMatcher.literal("::ffff:10.0.0.1")).containsExactly(10, 0, 0, 1);
  }
}
