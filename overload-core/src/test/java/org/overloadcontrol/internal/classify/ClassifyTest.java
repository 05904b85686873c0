package org.overloadcontrol.internal.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

class ClassifyTest {

  @Test
  void pathPatternsFollowServletMappingSyntax() {
    assertThat(PathPattern.parse("/checkout").matches("/checkout")).isTrue();
    assertThat(PathPattern.parse("/checkout").matches("/checkout/x")).isFalse();
    assertThat(PathPattern.parse("/api/*").matches("/api")).isTrue();
    assertThat(PathPattern.parse("/api/*").matches("/api/v1/x")).isTrue();
    assertThat(PathPattern.parse("/api/*").matches("/apix")).isFalse();
    assertThat(PathPattern.parse("*.jpg").matches("/images/1.jpg")).isTrue();
    assertThat(PathPattern.parse("*.jpg").matches("/images/1.jpg.html")).isFalse();
    assertThat(PathPattern.parse("/*").matches("/anything")).isTrue();
    assertThatThrownBy(() -> PathPattern.parse("api/*")).hasMessageContaining("/api/*");
    assertThatThrownBy(() -> PathPattern.parse("/a/*/b"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void addressMatcherHandlesCidrV4V6AndMappedAddresses() {
    AddressMatcher m = AddressMatcher.parse(List.of("10.0.0.0/8", "192.168.1.7", "2001:db8::/32"));
    assertThat(m.matches("10.200.3.4")).isTrue();
    assertThat(m.matches("11.0.0.1")).isFalse();
    assertThat(m.matches("192.168.1.7")).isTrue();
    assertThat(m.matches("192.168.1.8")).isFalse();
    assertThat(m.matches("2001:db8:1::5")).isTrue();
    assertThat(m.matches("2001:db9::5")).isFalse();
    assertThat(m.matches("::ffff:10.1.2.3")).isTrue();
    assertThat(m.matches("localhost")).isFalse(); // never resolved
    assertThat(m.matches(null)).isFalse();
    AddressMatcher odd = AddressMatcher.parse(List.of("172.16.0.0/12"));
    assertThat(odd.matches("172.31.255.255")).isTrue();
    assertThat(odd.matches("172.32.0.0")).isFalse();
    assertThatThrownBy(() -> AddressMatcher.parse(List.of("10.0.0.0/33")))
        .hasMessageContaining("prefix length");
    assertThatThrownBy(() -> AddressMatcher.parse(List.of("example.com")))
        .hasMessageContaining("not an IP address");
  }

  @Test
  void forwardedForIsReadRightToLeftPastTrustedProxiesOnly() {
    ClientAddressResolver r =
        new ClientAddressResolver(AddressMatcher.parse(List.of("10.0.0.0/8")));
    // From a trusted proxy: the right-most untrusted hop is the client.
    assertThat(r.resolve("10.0.0.1", "1.2.3.4, 5.6.7.8, 10.0.0.9")).isEqualTo("5.6.7.8");
    // A spoofed header from an untrusted peer is ignored.
    assertThat(r.resolve("9.9.9.9", "1.2.3.4")).isEqualTo("9.9.9.9");
    // Garbage stops the walk at the last trusted address.
    assertThat(r.resolve("10.0.0.1", "evil, 10.0.0.2")).isEqualTo("10.0.0.2");
    assertThat(r.resolve("10.0.0.1", "[2001:db8::1]:443")).isEqualTo("2001:db8::1");
    assertThat(r.resolve("10.0.0.1", "1.2.3.4:5555")).isEqualTo("1.2.3.4");
    assertThat(r.resolve("10.0.0.1", null)).isEqualTo("10.0.0.1");
  }

  @Test
  void classRulesMatchOnEveryConditionTheySet() {
    ClassDefinition gold = new ClassDefinition("gold", 5, RequestKind.BROWSING, 1);
    ClassRule rule =
        new ClassRule(
            gold,
            List.of(PathPattern.parse("/api/*")),
            Set.of("post"),
            ClassRule.NameValue.parse("X-Tier=gold"),
            ClassRule.NameValue.parse("session"),
            AddressMatcher.parse(List.of("10.0.0.0/8")));
    TestRequest ok =
        new TestRequest(
            "POST", "/api/buy", Map.of("X-Tier", "gold"), Map.of("session", "s"), "10.1.1.1");
    assertThat(rule.matches(ok)).isTrue();
    assertThat(
            rule.matches(
                new TestRequest("GET", ok.path(), ok.headers(), ok.cookies(), ok.clientAddress())))
        .isFalse();
    assertThat(
            rule.matches(
                new TestRequest("POST", "/web", ok.headers(), ok.cookies(), ok.clientAddress())))
        .isFalse();
    assertThat(
            rule.matches(
                new TestRequest(
                    "POST",
                    ok.path(),
                    Map.of("X-Tier", "silver"),
                    ok.cookies(),
                    ok.clientAddress())))
        .isFalse();
    assertThat(
            rule.matches(
                new TestRequest("POST", ok.path(), ok.headers(), Map.of(), ok.clientAddress())))
        .isFalse();
    assertThat(
            rule.matches(new TestRequest("POST", ok.path(), ok.headers(), ok.cookies(), "8.8.8.8")))
        .isFalse();
  }

  @Test
  void requestStartFromAProxyBecomesAnEarlierArrival() {
    FakeTicker ticker = new FakeTicker();
    Clock wall = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L, 500_000_000), ZoneOffset.UTC);
    ArrivalTime arrival = new ArrivalTime(ticker, wall, 60_000_000_000L);
    long now = ticker.read();
    long ms = 1_000_000L;
    assertThat(arrival.arrival(now, "t=1700000000.250")).isEqualTo(now - 250 * ms);
    assertThat(arrival.arrival(now, "t=1700000000250")).isEqualTo(now - 250 * ms);
    assertThat(arrival.arrival(now, "1700000000250000")).isEqualTo(now - 250 * ms);
    assertThat(arrival.arrival(now, "1700000000250000000")).isEqualTo(now - 250 * ms);
    assertThat(arrival.arrival(now, null)).isEqualTo(now);
    assertThat(arrival.arrival(now, "garbage")).isEqualTo(now);
    assertThat(arrival.arrival(now, "t=1700000001.0")).isEqualTo(now); // future: skew
    assertThat(arrival.arrival(now, "t=1699999000.0")).isEqualTo(now); // older than max age
  }
}
