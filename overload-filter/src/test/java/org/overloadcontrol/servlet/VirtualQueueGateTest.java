package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.overloadcontrol.capacity.CapacitySource;
import org.overloadcontrol.classify.AddressMatcher;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.ConfigSection;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.virtualqueue.EpochClock;
import org.overloadcontrol.virtualqueue.KeyRing;
import org.overloadcontrol.virtualqueue.RefusalReason;
import org.overloadcontrol.virtualqueue.VirtualQueue;
import org.overloadcontrol.virtualqueue.VirtualQueueSettings;

class VirtualQueueGateTest {

  private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
  private final Ticker ticker = nanos::get;
  private final List<String> completions = new ArrayList<>();
  private VirtualQueueGate gate;

  /** Capacity 1 request per second, completions recorded. */
  private final CapacitySource capacity = new CapacitySource() {
    @Override
    public double capacity(long nowNanos) {
      return 1;
    }

    @Override
    public double hardness(String type) {
      return 1;
    }

    @Override
    public void completed(String type, long responseNanos, boolean success, long nowNanos) {
      completions.add(type + ":" + responseNanos + ":" + success);
    }
  };

  @BeforeEach
  void setUp() {
    VirtualQueueSettings settings = VirtualQueueSettings.from(ConfigSection.of("virtualQueue",
        Map.of("enabled", "true", "paths", "/checkout,/upload", "capacity", "1",
            "types.pay", "/checkout", "repostMaxBytes", "100")));
    VirtualQueue queue = VirtualQueue.of(settings, KeyRing.parse(KeyRing.newEntry("k1",
        new SecureRandom())), capacity, EpochClock.fixed(ticker, nanos.get(), 1_767_225_600L));
    gate = new VirtualQueueGate(settings, queue,
        new ClientAddressResolver(AddressMatcher.none()), ticker);
  }

  @Test
  void unprotectedPathsAndADisabledGatePassUntouched() throws IOException {
    Exchange e = new Exchange("GET", "/catalog", null);
    assertThat(gate.admit(e.request, e.response)).isTrue();
    verify(e.response, never()).setStatus(org.mockito.ArgumentMatchers.anyInt());
    VirtualQueueGate off = VirtualQueueGate.create(OverloadConfig.of(Map.of()),
        new ClientAddressResolver(AddressMatcher.none()), ticker, java.time.Clock.systemUTC(),
        Runnable::run);
    Exchange f = new Exchange("GET", "/checkout", null);
    assertThat(off.enabled()).isFalse();
    assertThat(off.admit(f.request, f.response)).isTrue();
  }

  @Test
  void underCapacityPassesAndCompletionIsReported() throws IOException {
    Exchange e = new Exchange("GET", "/checkout", null);
    assertThat(gate.admit(e.request, e.response)).isTrue();
    verify(e.request).setAttribute(VirtualQueueGate.TYPE_ATTRIBUTE, "pay");
    when(e.request.getAttribute(VirtualQueueGate.TYPE_ATTRIBUTE)).thenReturn("pay");
    gate.complete(e.request, 1234, true);
    assertThat(completions).containsExactly("pay:1234:true");
  }

  @Test
  void browserGetWaitsOnAPageThatRetriesWithTheToken() throws IOException {
    fill();
    Exchange e = new Exchange("GET", "/checkout", "item=7").browser();
    assertThat(gate.admit(e.request, e.response)).isFalse();
    verify(e.response).setStatus(200);
    String body = e.body();
    String token = e.cookie().getValue();
    assertThat(body).contains("<meta http-equiv=\"refresh\" content=\"1;url=/checkout?item=7"
        + "&amp;oc_token=" + token + "\">");
    assertThat(body).contains("id=\"oc-wait\">1<").contains("<script>");
    assertThat(e.cookie().getPath()).isEqualTo("/checkout");
    assertThat(e.cookie().isHttpOnly()).isTrue();
    assertThat(e.cookie().getMaxAge()).isEqualTo(1 + 10 + 1);

    nanos.addAndGet(1_000_000_000L);
    Exchange back = new Exchange("GET", "/checkout", "item=7&oc_token=" + token).browser();
    assertThat(gate.admit(back.request, back.response)).isTrue();
  }

  @Test
  void apiClientGets503RetryAfterAndJsonWithTheToken() throws IOException {
    fill();
    Exchange e = new Exchange("GET", "/checkout", null);
    assertThat(gate.admit(e.request, e.response)).isFalse();
    verify(e.response).setStatus(503);
    verify(e.response).setHeader("Retry-After", "1");
    verify(e.response).setContentType("application/json");
    assertThat(e.body()).startsWith("{\"status\":\"waiting\",\"waitSeconds\":1,")
        .contains("\"token\":\"" + e.cookie().getValue() + "\"")
        .contains("\"retryUrl\":\"/checkout?oc_token=");
  }

  @Test
  void formPostIsKeptAndRepostedWithTheToken() throws IOException {
    fill();
    Exchange e = new Exchange("POST", "/checkout", null).browser()
        .body("application/x-www-form-urlencoded", "name=J%C3%BCrgen&note=%3Cb%3E");
    assertThat(gate.admit(e.request, e.response)).isFalse();
    verify(e.response).setStatus(200);
    String body = e.body();
    assertThat(body).contains("<form id=\"oc-form\" method=\"post\" action=\"/checkout?oc_token=")
        .contains("name=\"name\" value=\"Jürgen\"")
        .contains("name=\"note\" value=\"&lt;b&gt;\"")
        .contains("document.getElementById('oc-form').submit()")
        .doesNotContain("http-equiv=\"refresh\"");
  }

  @Test
  void bodiesThatCannotBeKeptAskTheUserToResubmitAndKeepThePlaceInACookie()
      throws IOException {
    fill();
    Exchange upload = new Exchange("POST", "/upload", null).browser()
        .body("multipart/form-data; boundary=x", "--x--");
    assertThat(gate.admit(upload.request, upload.response)).isFalse();
    verify(upload.response).setStatus(503);
    verify(upload.response).setHeader("Retry-After", "1");
    assertThat(upload.body()).contains("was not sent");
    String token = upload.cookie().getValue();

    Exchange large = new Exchange("POST", "/checkout", null).browser()
        .body("application/x-www-form-urlencoded", "x=" + "a".repeat(200));
    assertThat(gate.admit(large.request, large.response)).isFalse();
    verify(large.response).setStatus(503);

    nanos.addAndGet(1_000_000_000L);
    Exchange again = new Exchange("POST", "/upload", null).browser()
        .cookies(new Cookie("oc_token", token));
    assertThat(gate.admit(again.request, again.response)).isTrue();
    ArgumentCaptor<Cookie> cleared = ArgumentCaptor.forClass(Cookie.class);
    verify(again.response).addCookie(cleared.capture());
    assertThat(cleared.getValue().getMaxAge()).isZero();
  }

  @Test
  void forgedQueryTokenIsRefusedWith403AndALinkToRejoin() throws IOException {
    Exchange e = new Exchange("GET", "/checkout", "oc_token=AAAA").browser();
    assertThat(gate.admit(e.request, e.response)).isFalse();
    verify(e.response).setStatus(403);
    assertThat(e.body()).contains("not issued by this site").contains("href=\"/checkout\"");
    assertThat(gate.queue().refusalCount(RefusalReason.FORGED)).isEqualTo(1);

    Exchange api = new Exchange("GET", "/checkout", "oc_token=AAAA");
    gate.admit(api.request, api.response);
    verify(api.response).setContentType("application/problem+json");
    assertThat(api.body()).contains("\"reason\":\"forged\"").contains("\"status\":403");
  }

  @Test
  void earlyTokenGets503WithTheSecondsLeft() throws IOException {
    fill();
    fill();
    Exchange e = new Exchange("GET", "/checkout", null);
    gate.admit(e.request, e.response);
    String token = e.cookie().getValue();
    Exchange early = new Exchange("GET", "/checkout", "oc_token=" + token);
    assertThat(gate.admit(early.request, early.response)).isFalse();
    verify(early.response).setStatus(503);
    verify(early.response).setHeader("Retry-After", "2");
    assertThat(early.body()).contains("\"reason\":\"early\"");
  }

  @Test
  void staleCookieJoinsTheQueueAfresh() throws IOException {
    Exchange e = new Exchange("GET", "/checkout", null).cookies(new Cookie("oc_token", "junk"));
    assertThat(gate.admit(e.request, e.response)).isTrue();
  }

  /** Takes the current second's one request of capacity. */
  private void fill() throws IOException {
    Exchange e = new Exchange("GET", "/checkout", null);
    gate.admit(e.request, e.response);
  }

  /** A mocked request and response. */
  private static final class Exchange {
    final HttpServletRequest request = mock(HttpServletRequest.class);
    final HttpServletResponse response = mock(HttpServletResponse.class);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Exchange(String method, String path, String query) throws IOException {
      when(request.getMethod()).thenReturn(method);
      when(request.getRequestURI()).thenReturn(path);
      when(request.getServletPath()).thenReturn(path);
      when(request.getQueryString()).thenReturn(query);
      when(request.getRemoteAddr()).thenReturn("192.0.2.10");
      when(request.getHeaders(anyString())).thenReturn(Collections.emptyEnumeration());
      when(response.getOutputStream()).thenReturn(new ServletOutputStream() {
        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {}

        @Override
        public void write(int b) {
          out.write(b);
        }
      });
    }

    Exchange browser() {
      when(request.getHeader("Accept")).thenReturn("text/html,application/xhtml+xml");
      return this;
    }

    Exchange cookies(Cookie... cookies) {
      when(request.getCookies()).thenReturn(cookies);
      return this;
    }

    Exchange body(String contentType, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
      ByteArrayInputStream in = new ByteArrayInputStream(bytes);
      when(request.getContentType()).thenReturn(contentType);
      when(request.getContentLengthLong()).thenReturn((long) bytes.length);
      when(request.getInputStream()).thenReturn(new ServletInputStream() {
        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {}

        @Override
        public int read() {
          return in.read();
        }
      });
      return this;
    }

    String body() {
      return out.toString(StandardCharsets.UTF_8);
    }

    Cookie cookie() {
      ArgumentCaptor<Cookie> c = ArgumentCaptor.forClass(Cookie.class);
      verify(response).addCookie(c.capture());
      return c.getValue();
    }
  }

}
