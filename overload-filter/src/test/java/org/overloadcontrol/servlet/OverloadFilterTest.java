package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

class OverloadFilterTest {

  @RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
  @ResponseTimeTarget("1500ms")
  static final class PaymentServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  @Endpoint("catalogue")
  @RequestClass(value = "browse", rank = 2, utility = 22)
  static final class BrowseServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  @RequestClass(value = "browse", rank = 3, utility = 22)
  static final class DisagreeingServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  /** A handler the application names by class. */
  public static final class TeapotHandler implements RejectionHandler {
    @Override
    public void reject(
        jakarta.servlet.http.HttpServletRequest request,
        jakarta.servlet.http.HttpServletResponse response,
        Rejection rejection) {
      response.setStatus(418);
    }
  }

  private final FilterHarness harness = new FilterHarness();

  private OverloadContext pass(OverloadFilter filter, FilterHarness.Req req) throws Exception {
    AtomicReference<OverloadContext> seen = new AtomicReference<>();
    FilterChain chain = (rq, rs) -> seen.set(Overload.context(rq).orElseThrow());
    filter.doFilter(req.build(), new FilterHarness.Res().mock, chain);
    return seen.get();
  }

  @Test
  void classifiesByServletNameAndAnnotations() throws Exception {
    harness.initParams.put("admission.controller", "rate"); // reads the token bucket's rate
    harness.servlets.put("payment", PaymentServlet.class);
    harness.servlets.put("browse", BrowseServlet.class);
    OverloadFilter filter = harness.start();

    OverloadContext payment = pass(filter, new FilterHarness.Req().servlet("payment", "/pay"));
    assertThat(payment.endpoint()).isEqualTo("payment");
    assertThat(payment.requestClass()).isEqualTo("payment");
    assertThat(payment.target()).contains(Duration.ofMillis(1500));
    assertThat(payment.admissionRate()).isEqualTo(100.0);

    OverloadContext browse = pass(filter, new FilterHarness.Req().servlet("browse", "/browse"));
    assertThat(browse.endpoint()).isEqualTo("catalogue"); // @Endpoint
    assertThat(browse.requestClass()).isEqualTo("browse");
    assertThat(browse.target()).isEmpty();
    assertThat(browse.admissionRate()).isInfinite();

    OverloadContext other = pass(filter, new FilterHarness.Req().servlet("misc", "/misc"));
    assertThat(other.endpoint()).isEqualTo("misc");
    assertThat(other.requestClass()).isEqualTo("default");

    assertThat(filter.runtime().engine().config().requestClass("payment").orElseThrow().kind())
        .isEqualTo(RequestKind.TRANSACTION);
  }

  @Test
  void configurationRulesOverrideAnnotations() throws Exception {
    harness.servlets.put("browse", BrowseServlet.class);
    harness.initParams.put("classes.gold.rank", "9");
    harness.initParams.put("classes.gold.match.header", "X-Tier=gold");
    harness.initParams.put("classes.vip.rank", "10");
    harness.initParams.put("classes.vip.match.cookie", "vip=yes");
    harness.initParams.put("classes.office.rank", "1");
    harness.initParams.put("classes.office.match.client", "10.0.0.0/8");
    harness.initParams.put("trustedProxies", "127.0.0.1");
    harness.initParams.put("endpoints.api.paths", "/api/*");
    OverloadFilter filter = harness.start();

    assertThat(
            pass(filter, new FilterHarness.Req().servlet("browse", "/b").header("X-Tier", "gold"))
                .requestClass())
        .isEqualTo("gold");
    FilterHarness.Req vip = new FilterHarness.Req().servlet("browse", "/b");
    vip.cookies = new Cookie[] {new Cookie("vip", "yes")};
    assertThat(pass(filter, vip).requestClass()).isEqualTo("vip");
    // The client address behind the trusted proxy (127.0.0.1) is 10.1.2.3.
    assertThat(
            pass(
                    filter,
                    new FilterHarness.Req()
                        .servlet("browse", "/b")
                        .header("X-Forwarded-For", "10.1.2.3"))
                .requestClass())
        .isEqualTo("office");
    // From an untrusted peer the same header is ignored.
    FilterHarness.Req spoof =
        new FilterHarness.Req().servlet("browse", "/b").header("X-Forwarded-For", "10.1.2.3");
    spoof.remote = "8.8.8.8";
    assertThat(pass(filter, spoof).requestClass()).isEqualTo("browse");
    // A path rule names the endpoint, whatever the servlet.
    assertThat(pass(filter, new FilterHarness.Req().servlet("browse", "/api")).endpoint())
        .isEqualTo("api");
  }

  @Test
  void precedenceIsAnnotationsThenInitParamsThenYaml() throws Exception {
    harness.servlets.put("payment", PaymentServlet.class);
    assertThat(pass(harness.start(), new FilterHarness.Req().servlet("payment", "/p")).target())
        .contains(Duration.ofMillis(1500));
    harness.initParams.put("endpoints.payment.target", "1s");
    assertThat(pass(harness.start(), new FilterHarness.Req().servlet("payment", "/p")).target())
        .contains(Duration.ofSeconds(1));
    harness.yaml = "endpoints:\n  payment:\n    target: 700ms\n";
    assertThat(pass(harness.start(), new FilterHarness.Req().servlet("payment", "/p")).target())
        .contains(Duration.ofMillis(700));
  }

  @Test
  void operatorFileFromTheSystemPropertyIsLayeredOverEverything(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("ops.yaml");
    java.nio.file.Files.writeString(file, "endpoints:\n  payment:\n    target: 300ms\n");
    harness.servlets.put("payment", PaymentServlet.class);
    harness.yaml = "endpoints:\n  payment:\n    target: 700ms\n";
    System.setProperty(OverloadFilter.CONFIG_FILE_PROPERTY, file.toString());
    try {
      assertThat(pass(harness.start(), new FilterHarness.Req().servlet("payment", "/p")).target())
          .contains(Duration.ofMillis(300));
      System.setProperty(OverloadFilter.CONFIG_FILE_PROPERTY, dir.resolve("none").toString());
      assertThatThrownBy(harness::start).hasMessageContaining("overload.configFile");
    } finally {
      System.clearProperty(OverloadFilter.CONFIG_FILE_PROPERTY);
    }
  }

  @Test
  void rejectsWith503RetryAfterAndHtmlForBrowsers() throws Exception {
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.1");
    OverloadFilter filter = harness.start();
    FilterChain chain = mock(FilterChain.class);

    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());

    FilterChain second = mock(FilterChain.class);
    FilterHarness.Res res = new FilterHarness.Res();
    filter.doFilter(
        new FilterHarness.Req().header("Accept", "text/html,*/*").build(), res.mock, second);
    verify(second, never()).doFilter(any(), any());
    assertThat(res.status).isEqualTo(503);
    assertThat(res.headers).containsEntry("Retry-After", "10"); // one token per 10 s
    assertThat(res.headers).containsEntry("Cache-Control", "no-store");
    assertThat(res.contentType).startsWith("text/html");
    assertThat(res.bodyText()).contains("try again in 10 seconds");
    EndpointClass route = routeOf(filter, "s");
    assertThat(route.outcomeCount(Outcome.REJECTED)).isEqualTo(1);
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
  }

  @Test
  void rejectsApiClientsWithProblemJson() throws Exception {
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.1");
    OverloadFilter filter = harness.start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Res res = new FilterHarness.Res();
    filter.doFilter(
        new FilterHarness.Req().header("Accept", "application/json").build(),
        res.mock,
        mock(FilterChain.class));
    assertThat(res.status).isEqualTo(503);
    assertThat(res.contentType).isEqualTo("application/problem+json");
    assertThat(res.bodyText())
        .contains("\"status\":503")
        .contains("\"retryAfterSeconds\":10")
        .contains("\"endpoint\":\"s\"")
        .contains("\"title\":\"Service Unavailable\"");
  }

  @Test
  void retryAfterIsClampedToTheConfiguredMaximum() throws Exception {
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("controller.rateMin", "0.001");
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.001");
    harness.initParams.put("retryAfter.max", "30s");
    OverloadFilter filter = harness.start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Res res = new FilterHarness.Res();
    filter.doFilter(new FilterHarness.Req().build(), res.mock, mock(FilterChain.class));
    assertThat(res.headers).containsEntry("Retry-After", "30");
  }

  @Test
  void applicationRejectionHandlerByClassName() throws Exception {
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.1");
    harness.initParams.put("rejectionHandler", TeapotHandler.class.getName());
    OverloadFilter filter = harness.start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Res res = new FilterHarness.Res();
    filter.doFilter(new FilterHarness.Req().build(), res.mock, mock(FilterChain.class));
    assertThat(res.status).isEqualTo(418);
  }

  @Test
  void failingRejectionHandlerFallsBackToTheDefault503() throws Exception {
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.1");
    harness.contextAttributes.put(
        RejectionHandler.ATTRIBUTE,
        (RejectionHandler)
            (rq, rs, r) -> {
              throw new IllegalStateException("boom");
            });
    OverloadFilter filter = harness.start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Res res = new FilterHarness.Res();
    filter.doFilter(new FilterHarness.Req().build(), res.mock, mock(FilterChain.class));
    assertThat(res.status).isEqualTo(503);
    assertThat(res.headers).containsKey("Retry-After");
  }

  @Test
  void aClientResetDuringA503WriteIsNeitherRethrownNorLoggedWithAStackTrace() throws Exception {
    harness.initParams.put("admission.controller", "rate"); // an instant refusal by the bucket
    harness.initParams.put("endpoints.s.target", "100ms");
    // The token bucket refuses the second request at once (a concurrency limit would not).
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "0.1");
    OverloadFilter filter = harness.start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Res res = new FilterHarness.Res();
    jakarta.servlet.ServletOutputStream reset = mock(jakarta.servlet.ServletOutputStream.class);
    org.mockito.Mockito.doThrow(new java.io.IOException("Connection reset by peer"))
        .when(reset)
        .write(any(byte[].class));
    when(res.mock.getOutputStream()).thenReturn(reset);
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream logged = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(logged, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      org.assertj.core.api.Assertions.assertThatCode(
              () ->
                  filter.doFilter(
                      new FilterHarness.Req().build(), res.mock, mock(FilterChain.class)))
          .doesNotThrowAnyException();
    } finally {
      System.setErr(err);
    }
    assertThat(logged.toString(java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("Connection reset by peer");
    assertThat(routeOf(filter, "s").outcomeCount(Outcome.REJECTED)).isEqualTo(1);
  }

  @Test
  void badConfigurationStopsInitWithAMessageNamingTheKey() {
    harness.initParams.put("endpoints.s.target", "-1s");
    assertThatThrownBy(harness::start)
        .isInstanceOf(ServletException.class)
        .hasMessageContaining("endpoints.s.target")
        .hasMessageContaining("'-1s'")
        .hasMessageContaining("web.xml init-param");
    harness.initParams.clear();
    harness.initParams.put("endpoints.s.target", "soon");
    assertThatThrownBy(harness::start).hasMessageContaining("'soon'");
    harness.initParams.clear();
    harness.initParams.put("endpoints.s.class", "platinum");
    assertThatThrownBy(harness::start).hasMessageContaining("unknown request class 'platinum'");
    harness.initParams.clear();
    harness.initParams.put("maxThreads", "5");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("'maxThreads'")
        .hasMessageContaining("unknown key");
    harness.initParams.clear();
    harness.initParams.put("configFile", "/nowhere/overload.yaml");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("configFile")
        .hasMessageContaining("no such file");
    harness.initParams.clear();
    harness.initParams.put("rejectionHandler", "com.example.Missing");
    assertThatThrownBy(harness::start).hasMessageContaining("rejectionHandler");
  }

  @Test
  void anEndpointNoServletOrPathRuleNamesIsAnErrorNamingTheKeyAndTheClosestName() {
    harness.servlets.put("slow", jakarta.servlet.http.HttpServlet.class);
    harness.initParams.put("endpoints.slwo.target", "100ms");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("'endpoints.slwo.target' = '100ms'")
        .hasMessageContaining("web.xml init-param")
        .hasMessageContaining("did you mean 'slow'?");
    harness.initParams.clear();
    harness.initParams.put("queue.permits", "2");
    harness.initParams.put("queue.endpoints.slwo.permits", "1");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("'queue.endpoints.slwo.permits'")
        .hasMessageContaining("did you mean 'slow'?");
    // A paths rule makes an endpoint of its own.
    harness.initParams.clear();
    harness.initParams.put("endpoints.search.paths", "/search/*");
    harness.initParams.put("endpoints.search.target", "1s");
    org.assertj.core.api.Assertions.assertThatCode(harness::start).doesNotThrowAnyException();
  }

  @Test
  void disagreeingAnnotationsAreAnErrorUnlessConfigurationDecides() throws Exception {
    harness.servlets.put("browse", BrowseServlet.class);
    harness.servlets.put("other", DisagreeingServlet.class);
    assertThatThrownBy(harness::start)
        .isInstanceOf(ServletException.class)
        .hasMessageContaining("classes.browse.rank")
        .hasMessageContaining("must agree");
    harness.initParams.put("classes.browse.rank", "2");
    assertThat(
            harness.start().runtime().engine().config().requestClass("browse").orElseThrow().rank())
        .isEqualTo(2);
  }

  @Test
  void exceptionInTheApplicationIsAFailedOutcome() throws Exception {
    OverloadFilter filter = harness.start();
    FilterChain chain =
        (rq, rs) -> {
          throw new IOException("app broke");
        };
    assertThatThrownBy(
            () ->
                filter.doFilter(
                    new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain))
        .hasMessage("app broke");
    EndpointClass route = routeOf(filter, "s");
    assertThat(route.outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isZero();
  }

  @Test
  void asyncRequestsCompleteWhenTheResponseCompletes() throws Exception {
    OverloadFilter filter = harness.start();
    FilterHarness.Req req = new FilterHarness.Req();
    req.asyncStarted = true;
    HttpServletRequest request = req.build();
    AsyncContext async = mock(AsyncContext.class);
    when(request.getAsyncContext()).thenReturn(async);
    filter.doFilter(request, new FilterHarness.Res().mock, (rq, rs) -> {});

    EndpointClass route = routeOf(filter, "s");
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isZero();
    ArgumentCaptor<AsyncListener> listener = ArgumentCaptor.forClass(AsyncListener.class);
    verify(async).addListener(listener.capture());
    harness.ticker.advance(Duration.ofMillis(250));
    listener.getValue().onComplete(new AsyncEvent(async));
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    listener.getValue().onComplete(new AsyncEvent(async)); // never counted twice
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(1);

    FilterHarness.Req failing = new FilterHarness.Req();
    failing.asyncStarted = true;
    HttpServletRequest failingRequest = failing.build();
    AsyncContext async2 = mock(AsyncContext.class);
    when(failingRequest.getAsyncContext()).thenReturn(async2);
    filter.doFilter(failingRequest, new FilterHarness.Res().mock, (rq, rs) -> {});
    verify(async2).addListener(listener.capture());
    listener.getValue().onTimeout(new AsyncEvent(async2));
    listener.getValue().onComplete(new AsyncEvent(async2));
    assertThat(route.outcomeCount(Outcome.FAILED)).isEqualTo(1);
  }

  @Test
  void requestStartIsHonouredOnlyFromTrustedProxies() throws Exception {
    harness.initParams.put("trustedProxies", "10.0.0.1");
    OverloadFilter filter = harness.start();
    // Two seconds before the filter's wall clock, which it is given rather than reading.
    String start = "t=" + (harness.wallClock.millis() - 2_000);
    FilterHarness.Req viaProxy = new FilterHarness.Req().header("X-Request-Start", start);
    viaProxy.remote = "10.0.0.1";
    OverloadContext proxied = pass(filter, viaProxy);
    assertThat(proxied.elapsed()).isEqualTo(Duration.ofSeconds(2));

    FilterHarness.Req direct = new FilterHarness.Req().header("X-Request-Start", start);
    direct.remote = "10.0.0.2";
    assertThat(pass(filter, direct).elapsed()).isZero();
  }

  @Test
  void passesThroughNonRequestDispatchesAndWhenDisabled() throws Exception {
    harness.initParams.put("enabled", "false");
    OverloadFilter filter = harness.start();
    FilterChain chain = mock(FilterChain.class);
    HttpServletRequest request = new FilterHarness.Req().build();
    filter.doFilter(request, new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());
    assertThat(Overload.context(request)).isEmpty();
  }

  @Test
  void publishesTheRuntimeForTheApplication() throws Exception {
    OverloadFilter filter = harness.start();
    assertThat(harness.contextAttributes.get(OverloadRuntime.ATTRIBUTE)).isSameAs(filter.runtime());
  }

  private static EndpointClass routeOf(OverloadFilter filter, String endpoint) {
    OverloadEngine engine = filter.runtime().engine();
    return engine.endpoint(endpoint).forClass(engine.config().defaultClass());
  }
}
