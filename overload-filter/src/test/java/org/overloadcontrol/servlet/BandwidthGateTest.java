package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.config.OverloadConfig;

class BandwidthGateTest {

  long now;
  BandwidthGate gate;

  @BeforeEach
  void setUp() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("trustedProxies", "10.0.0.0/8");
    m.put("bandwidth.total", "100KB/s");
    m.put("bandwidth.standbyLimit", "1");
    m.put("bandwidth.groups.partner.share", "20%");
    m.put("bandwidth.groups.partner.match.client", "203.0.113.0/24");
    m.put("bandwidth.groups.gold.share", "50%");
    m.put("bandwidth.groups.gold.match.cookie", "plan=gold");
    m.put("bandwidth.groups.blocked.share", "0%");
    m.put("bandwidth.groups.blocked.match.header", "X-Bot");
    OverloadConfig config = OverloadConfig.of(m);
    gate = BandwidthGate.from(config,
        new org.overloadcontrol.classify.ClientAddressResolver(config.trustedProxies()),
        () -> now);
  }

  static HttpServletRequest request(String remote, String forwarded, String xff) {
    HttpServletRequest r = mock(HttpServletRequest.class);
    when(r.getRemoteAddr()).thenReturn(remote);
    // A fresh enumeration per call, as a container gives.
    when(r.getHeaders("Forwarded")).thenAnswer(i -> Collections.enumeration(
        forwarded == null ? List.of() : List.of(forwarded)));
    when(r.getHeaders("X-Forwarded-For")).thenAnswer(i -> Collections.enumeration(
        xff == null ? List.of() : List.of(xff)));
    when(r.getRequestURI()).thenReturn("/img/logo.png");
    return r;
  }

  @Test
  void mapsTheRequestToItsGroupByResolvedAddressCookieOrHeader() {
    ShapingDecision d = gate.decide(request("10.1.1.1", "for=203.0.113.5", null), 0);
    assertThat(d.ticket().group().name()).isEqualTo("partner");
    HttpServletRequest gold = request("198.51.100.1", null, null);
    when(gold.getCookies()).thenReturn(new Cookie[] {new Cookie("plan", "gold")});
    assertThat(gate.decide(gold, 0).ticket().group().name()).isEqualTo("gold");
    HttpServletRequest bot = request("198.51.100.1", null, null);
    when(bot.getHeader("X-Bot")).thenReturn("1");
    assertThat(gate.decide(bot, 0).status()).isEqualTo(403);
  }

  @Test
  void aSpoofedForwardedHeaderFromAnUntrustedPeerDoesNotBuyAShare() {
    ShapingDecision d = gate.decide(request("198.51.100.1", "for=203.0.113.5",
        "203.0.113.5"), 0);
    assertThat(d.ticket().group()).isNull(); // not the partner group: unshaped, unmatched
  }

  @Test
  void theDeclaredSizeAttributeIsTheKnownSize() {
    HttpServletRequest r = request("10.1.1.1", null, "203.0.113.5");
    when(r.getAttribute(BandwidthGate.SIZE_ATTRIBUTE)).thenReturn(10_000L);
    // A new group is itself unsatisfied: d = 2·20 KB/s; delay (1/40k − 1/100k)·10k = 150 ms.
    ShapingDecision d = gate.decide(r);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.DELAY);
    assertThat(d.delayNanos()).isBetween(149_999_000L, 150_001_000L);
    assertThat(BandwidthGate.declaredSize(request("10.1.1.1", null, null))).isEqualTo(-1);
  }

  static final class Captured extends ServletOutputStream {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void write(int b) {
      bytes.write(b);
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {}

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  ShapingDecision standbyRefusal() {
    HttpServletRequest r = request("10.1.1.1", null, "203.0.113.5");
    gate.decide(r, 10_000); // delayed: the only standby place
    ShapingDecision d = gate.decide(r, 10_000);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.REFUSE);
    return d;
  }

  @Test
  void writesA429WithRetryAfterAsProblemJson() throws Exception {
    HttpServletRequest r = request("10.1.1.1", null, "203.0.113.5");
    HttpServletResponse resp = mock(HttpServletResponse.class);
    Captured out = new Captured();
    when(resp.getOutputStream()).thenReturn(out);
    gate.refuse(r, resp, standbyRefusal());
    verify(resp).setStatus(429);
    verify(resp).setHeader("Retry-After", "1");
    verify(resp).setHeader("Cache-Control", "no-store");
    verify(resp).setContentType("application/problem+json");
    assertThat(out.text()).contains("\"status\":429")
        .contains("\"reason\":\"" + ShapingDecision.STANDBY_FULL + "\"")
        .contains("\"retryAfterSeconds\":1");
  }

  @Test
  void writesHtmlForBrowsersAndNoRetryAfterForAZeroShare() throws Exception {
    HttpServletRequest bot = request("198.51.100.1", null, null);
    when(bot.getHeader("X-Bot")).thenReturn("1");
    when(bot.getHeader("Accept")).thenReturn("text/html,application/xhtml+xml");
    HttpServletResponse resp = mock(HttpServletResponse.class);
    Captured out = new Captured();
    when(resp.getOutputStream()).thenReturn(out);
    gate.refuse(bot, resp, gate.decide(bot, 0));
    verify(resp).setStatus(403);
    verify(resp, never()).setHeader("Retry-After", "1");
    verify(resp).setContentType("text/html;charset=UTF-8");
    assertThat(out.text()).contains("<h1>Forbidden</h1>");
  }

  @Test
  void refusesToWriteAnythingButARefusalAndLeavesCommittedResponsesAlone() throws Exception {
    HttpServletRequest r = request("198.51.100.1", null, null);
    HttpServletResponse resp = mock(HttpServletResponse.class);
    assertThatThrownBy(() -> gate.refuse(r, resp, ShapingDecision.unshaped()))
        .isInstanceOf(IllegalArgumentException.class);
    when(resp.isCommitted()).thenReturn(true);
    gate.refuse(r, resp, standbyRefusal());
    verify(resp, never()).setStatus(429);
  }
}
