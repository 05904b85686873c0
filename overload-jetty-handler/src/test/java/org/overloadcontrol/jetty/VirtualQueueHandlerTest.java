package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.virtualqueue.VirtualQueue;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;

/**
 * The virtual queue (WebQ) in the Jetty handler, over HTTP on a real server: capacity one
 * request a second on {@code /checkout}, on a fake clock anchored to a whole Unix second, so
 * every wait is exact. The answers are the engine's, as the servlet filter sends them.
 */
class VirtualQueueHandlerTest {

  private static final String BROWSER = "text/html,application/xhtml+xml";

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private JettyHarness jetty;
  private OverloadHandler handler;

  /** Answers with the method, path and the form fields it received. */
  static final class Shop extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String text = request.getMethod() + " " + Request.getPathInContext(request);
      if (HttpMethod.POST.is(request.getMethod())) {
        Fields fields = FormFields.getFields(request);
        text += " " + fields.getValue("name");
      }
      JettyHarness.answer(response, callback, text);
      return true;
    }
  }

  private void start() throws Exception {
    handler =
        OverloadHandler.builder()
            .put("virtualQueue.enabled", "true")
            .put("virtualQueue.paths", "/checkout")
            .put("virtualQueue.capacity", "1")
            .put("virtualQueue.repostMaxBytes", "100")
            .ticker(ticker)
            .scheduler(scheduler)
            .wallClock(Clock.fixed(Instant.ofEpochSecond(1_767_225_600L), ZoneOffset.UTC))
            .handler(new Shop())
            .build();
    jetty = new JettyHarness(handler);
  }

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.close();
    }
  }

  private long count(Outcome outcome) {
    OverloadEngine engine = handler.runtime().engine();
    return engine.endpoints().stream()
        .flatMap(e -> e.classes().stream())
        .mapToLong(c -> c.outcomeCount(outcome))
        .sum();
  }

  private static String token(String text) {
    Matcher m = Pattern.compile("oc_token=([A-Za-z0-9_-]+)").matcher(text);
    assertThat(m.find()).as("a token in %s", text).isTrue();
    return m.group(1);
  }

  @Test
  void anApiClientToldToWaitGetsJsonWithATokenAndPassesWithItWhenItsSlotComes() throws Exception {
    start();
    assertThat(jetty.get("/checkout").getContentAsString()).isEqualTo("GET /checkout");
    assertThat(jetty.get("/catalog").getStatus()).as("unprotected path").isEqualTo(200);

    ContentResponse told = jetty.get("/checkout?item=7");
    assertThat(told.getStatus()).isEqualTo(503);
    assertThat(told.getHeaders().get("Retry-After")).isEqualTo("1");
    assertThat(told.getHeaders().get("Cache-Control")).isEqualTo("no-store");
    assertThat(told.getMediaType()).isEqualTo("application/json");
    String json = told.getContentAsString();
    String token = token(json);
    assertThat(json)
        .startsWith("{\"status\":\"waiting\",\"waitSeconds\":1,")
        .contains("\"token\":\"" + token + "\"")
        // JSON escapes '&' so the body is safe inside a script.
        .contains("\"retryUrl\":\"/checkout?item=7\\u0026oc_token=" + token + "\"");
    assertThat(told.getHeaders().get("Set-Cookie"))
        .startsWith("oc_token=" + token)
        .contains("Path=/checkout")
        .contains("HttpOnly")
        .containsIgnoringCase("SameSite=Lax");

    // Too early: 503 with the seconds left; the slot has not come.
    ContentResponse early = jetty.get("/checkout?item=7&oc_token=" + token);
    assertThat(early.getStatus()).isEqualTo(503);
    assertThat(early.getContentAsString()).contains("\"reason\":\"early\"");

    ticker.advance(Duration.ofSeconds(1));
    ContentResponse back = jetty.get("/checkout?item=7&oc_token=" + token);
    assertThat(back.getStatus()).isEqualTo(200);
    assertThat(back.getContentAsString()).isEqualTo("GET /checkout");
    // A second use of the same token is a replay.
    ContentResponse again = jetty.get("/checkout?item=7&oc_token=" + token);
    assertThat(again.getStatus()).isEqualTo(403);
    assertThat(again.getContentAsString()).contains("\"reason\":\"replayed\"");

    VirtualQueue queue = handler.runtime().virtualQueue().queue();
    assertThat(queue.tokenAdmittedCount()).isEqualTo(1);
    assertThat(queue.waitCount()).isEqualTo(1);
    assertThat(count(Outcome.REDIRECTED)).isEqualTo(1);
    assertThat(count(Outcome.REJECTED)).isEqualTo(2);
    await("three completions").until(() -> count(Outcome.COMPLETED) == 3);
  }

  @Test
  void aBrowserWaitsOnAPageThatRetriesWithTheTokenAndPassesWhenItsSlotComes() throws Exception {
    start();
    jetty.get("/checkout");
    ContentResponse page = jetty.request("/checkout").headers(h -> h.put("Accept", BROWSER)).send();
    assertThat(page.getStatus()).isEqualTo(200);
    assertThat(page.getMediaType()).isEqualTo("text/html");
    String html = page.getContentAsString();
    String token = token(html);
    assertThat(html)
        .contains(
            "<meta http-equiv=\"refresh\" content=\"1;url=/checkout?oc_token=" + token + "\">")
        .contains("id=\"oc-wait\">1<");

    ticker.advance(Duration.ofSeconds(1));
    // What the meta refresh does when the countdown ends.
    ContentResponse refreshed =
        jetty.request("/checkout?oc_token=" + token).headers(h -> h.put("Accept", BROWSER)).send();
    assertThat(refreshed.getStatus()).isEqualTo(200);
    assertThat(refreshed.getContentAsString()).isEqualTo("GET /checkout");
  }

  @Test
  void aFormPostIsKeptOnTheWaitingPageAndRepostedWithTheToken() throws Exception {
    start();
    jetty.get("/checkout");
    ContentResponse page =
        jetty
            .request("/checkout")
            .method(HttpMethod.POST)
            .headers(h -> h.put("Accept", BROWSER))
            .body(
                new StringRequestContent(
                    "application/x-www-form-urlencoded",
                    "name=J%C3%BCrgen&note=%3Cb%3E",
                    StandardCharsets.UTF_8))
            .send();
    assertThat(page.getStatus()).isEqualTo(200);
    String html = page.getContentAsString();
    String token = token(html);
    assertThat(html)
        .contains(
            "<form id=\"oc-form\" method=\"post\" action=\"/checkout?oc_token=" + token + "\">")
        .contains("name=\"name\" value=\"Jürgen\"")
        .contains("name=\"note\" value=\"&lt;b&gt;\"")
        .contains("document.getElementById('oc-form').submit()");

    ticker.advance(Duration.ofSeconds(1));
    // What the page's script posts when the countdown ends.
    ContentResponse reposted =
        jetty
            .request("/checkout?oc_token=" + token)
            .method(HttpMethod.POST)
            .headers(h -> h.put("Accept", BROWSER))
            .body(
                new StringRequestContent(
                    "application/x-www-form-urlencoded",
                    "name=J%C3%BCrgen&note=%3Cb%3E",
                    StandardCharsets.UTF_8))
            .send();
    assertThat(reposted.getStatus()).isEqualTo(200);
    assertThat(reposted.getContentAsString()).isEqualTo("POST /checkout Jürgen");
  }

  @Test
  void aBodyThatCannotBeKeptAsksForResubmissionAndTheCookieKeepsThePlace() throws Exception {
    start();
    jetty.get("/checkout");
    ContentResponse large =
        jetty
            .request("/checkout")
            .method(HttpMethod.POST)
            .headers(h -> h.put("Accept", BROWSER))
            .body(
                new StringRequestContent(
                    "application/x-www-form-urlencoded",
                    "name=" + "a".repeat(200),
                    StandardCharsets.UTF_8))
            .send();
    assertThat(large.getStatus()).isEqualTo(503);
    assertThat(large.getHeaders().get("Retry-After")).isEqualTo("1");
    assertThat(large.getContentAsString()).contains("was not sent");
    String token = token(large.getHeaders().get("Set-Cookie"));

    ticker.advance(Duration.ofSeconds(1));
    ContentResponse resubmitted =
        jetty
            .request("/checkout")
            .method(HttpMethod.POST)
            .headers(h -> h.put("Accept", BROWSER).put("Cookie", "oc_token=" + token))
            .body(
                new StringRequestContent(
                    "application/x-www-form-urlencoded", "name=x", StandardCharsets.UTF_8))
            .send();
    assertThat(resubmitted.getStatus()).isEqualTo(200);
    assertThat(resubmitted.getContentAsString()).isEqualTo("POST /checkout x");
    // The used cookie is cleared.
    assertThat(resubmitted.getHeaders().get("Set-Cookie"))
        .startsWith("oc_token=;")
        .contains("Max-Age=0");
  }

  @Test
  void aForgedTokenIsRefusedWith403AndALinkToJoinAgain() throws Exception {
    start();
    ContentResponse api = jetty.get("/checkout?oc_token=AAAA");
    assertThat(api.getStatus()).isEqualTo(403);
    assertThat(api.getHeaders().get("Retry-After")).isNull();
    assertThat(api.getMediaType()).isEqualTo("application/problem+json");
    assertThat(api.getContentAsString())
        .contains("\"reason\":\"forged\"")
        .contains("\"status\":403")
        .contains("\"rejoinUrl\":\"/checkout\"");
    ContentResponse browser =
        jetty.request("/checkout?oc_token=AAAA").headers(h -> h.put("Accept", BROWSER)).send();
    assertThat(browser.getStatus()).isEqualTo(403);
    assertThat(browser.getContentAsString())
        .contains("not issued by this site")
        .contains("href=\"/checkout\"");
    assertThat(handler.runtime().virtualQueue().queue().refusalCount(VirtualQueueRejection.FORGED))
        .isEqualTo(2);
    assertThat(count(Outcome.REJECTED)).isEqualTo(2);
    assertThat(count(Outcome.COMPLETED)).isZero();
  }
}
