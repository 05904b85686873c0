package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitingPageTest {

  @Test
  void everythingPlacedInMarkupIsEscaped() {
    String html =
        WaitingPage.repostHtml(
            3, 10, "/a?x=\"><script>", List.of(Map.entry("n\"", "<img src=x onerror=alert(1)>")));
    assertThat(html)
        .doesNotContain("<img")
        .doesNotContain("\"><script>")
        .contains("&lt;img src=x onerror=alert(1)&gt;")
        .contains("name=\"n&quot;\"");
  }

  @Test
  void jsonIsEscaped() {
    String json =
        WaitingPage.waitingJson(new VirtualQueueDecision.Wait("t0k", 4, 9), "/a?q=\"</script>");
    assertThat(json)
        .isEqualTo(
            "{\"status\":\"waiting\",\"waitSeconds\":4,"
                + "\"retryAfterSeconds\":4,\"position\":9,\"token\":\"t0k\","
                + "\"tokenParameter\":\"oc_token\",\"retryUrl\":\"/a?q=\\\"\\u003c/script\\u003e\"}");
  }

  @Test
  void tokenUrls() {
    assertThat(TokenUrls.bound("/p", "a=1&oc_token=xyz&b=2")).isEqualTo("/p?a=1&b=2");
    assertThat(TokenUrls.bound("/p", "oc_token=xyz")).isEqualTo("/p");
    assertThat(TokenUrls.token("a=1&oc_token=xyz")).isEqualTo("xyz");
    assertThat(TokenUrls.token("a=1")).isNull();
    assertThat(TokenUrls.withToken("/p", "t")).isEqualTo("/p?oc_token=t");
    assertThat(TokenUrls.withToken("/p?a=1", "t")).isEqualTo("/p?a=1&oc_token=t");
  }
}
