package org.overloadcontrol.internal.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 33, item 5: a feature that protects a path (virtual queue, endpoint and class rules,
 * bandwidth paths) must cover every form of it a container may hand over for the same servlet;
 * a bypass must not widen to a form that a container may hand to another servlet.
 */
class PathPatternTest {

  /** Forms of /app/checkout as containers resolve them (the trailing slash reaches a /app/checkout/* servlet). */
  private static final List<String> FORMS =
      List.of(
          "/app/checkout",
          "/app/checkout/",
          "/app/checkout//",
          "/app/checkout/.",
          "/app/checkout/./",
          "/app/checkout;x=1",
          "/app/checkout;x/",
          "/app/checkout/;x",
          "/app;x/checkout",
          "/app//checkout",
          "//app/checkout",
          "/app/./checkout",
          "/app/x/../checkout",
          "/app/status/../checkout");

  @Test
  void aProtectingPatternCoversEveryFormOfItsPath() {
    for (String pattern : List.of("/app/checkout", "/app/checkout/", "/app/checkout/*", "/app/*")) {
      PathPattern p = PathPattern.parse(pattern);
      for (String form : FORMS) {
        assertThat(p.matches(form)).as("%s on %s", pattern, form).isTrue();
      }
    }
    assertThat(PathPattern.parse("*.jpg").matches("/img/a.jpg;v=2")).isTrue();
    assertThat(PathPattern.parse("*.jpg").matches("/img/a.jpg/")).isTrue();
  }

  @Test
  void aProtectingPatternStillMatchesOnlyItsPath() {
    PathPattern exact = PathPattern.parse("/app/checkout");
    for (String other :
        List.of("/app/checkoutx", "/app/Checkout", "/app/checkout/x", "/app", "/", "/app/x")) {
      assertThat(exact.matches(other)).as(other).isFalse();
    }
    PathPattern prefix = PathPattern.parse("/app/checkout/*");
    assertThat(prefix.matches("/app/checkout/x")).isTrue();
    assertThat(prefix.matches("/app/checkoutx")).isFalse();
    assertThat(PathPattern.parse("/").matches("//")).isTrue();
    assertThat(PathPattern.parse("/").matches("/x")).isFalse();
  }

  @Test
  void aBypassMatchesOnlyWhatItNamesInEveryForm() {
    PathPattern exact = PathPattern.parse("/healthz");
    assertThat(exact.matchesEveryForm("/healthz")).isTrue();
    // Another servlet may serve these: a probe path controlled is safe, the reverse is not.
    assertThat(exact.matchesEveryForm("/healthz/")).isFalse();
    assertThat(exact.matchesEveryForm("//healthz")).isFalse();
    PathPattern prefix = PathPattern.parse("/health/*");
    assertThat(prefix.matchesEveryForm("/health/live")).isTrue();
    assertThat(prefix.matchesEveryForm("/health")).isTrue();
    // Jetty hands "/health;/../app/checkout" to the servlet of /app/* as "/health/../app/checkout".
    assertThat(prefix.matchesEveryForm("/health/../app/checkout")).isFalse();
    assertThat(prefix.matchesEveryForm("/health/x/../../app")).isFalse();
    assertThat(prefix.matchesEveryForm("/health/x/../live")).isTrue();
  }

  @Test
  void theCanonicalFormOfAnOrdinaryPathIsThePathItself() {
    String path = "/app/checkout";
    assertThat(PathPattern.canonical(path)).isSameAs(path);
    assertThat(PathPattern.canonical("/")).isEqualTo("/");
    assertThat(PathPattern.canonical("/a/b/")).isEqualTo("/a/b");
    assertThat(PathPattern.canonical("/a;p/./b;q//c/..")).isEqualTo("/a/b");
    assertThat(PathPattern.canonical("/../a")).isEqualTo("/a");
    assertThat(PathPattern.canonical("/.well-known/x")).isEqualTo("/.well-known/x");
  }
}
