package org.overloadcontrol.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;

/**
 * The producers and the interceptor in a real CDI container (Weld SE): a request-scoped bean
 * sees its own request's overload context and quality, and optional work is skipped while the
 * quality is below its bound. The servlet request bean a Jakarta EE container provides is
 * played by {@link Requests}, which hands out the context the filter would have set.
 */
class WeldInjectionTest {

  /** The container's HttpServletRequest bean, carrying the filter's context attribute. */
  @ApplicationScoped
  public static class Requests {
    private OverloadContext next;

    /** A method, not a field: a normal-scoped bean is reached through its client proxy. */
    public void next(OverloadContext context) {
      this.next = context;
    }

    @Produces
    @RequestScoped
    HttpServletRequest request() {
      HttpServletRequest request = mock(HttpServletRequest.class);
      when(request.getAttribute(OverloadContext.ATTRIBUTE)).thenReturn(next);
      return request;
    }
  }

  @ApplicationScoped
  public static class Recommendations {
    private int calls;

    public int calls() {
      return calls;
    }

    @SkipWhenDegraded(minQuality = 0.5)
    public List<String> forUser() {
      calls++;
      return List.of("a", "b");
    }

    @SkipWhenDegraded(minQuality = 0.5)
    public Optional<String> banner() {
      calls++;
      return Optional.of("sale");
    }
  }

  @RequestScoped
  public static class Page {
    @Inject OverloadContext context;
    @Inject @Quality double quality;
    @Inject Recommendations recommendations;

    String render() {
      return context.endpoint()
          + " "
          + quality
          + " "
          + recommendations.forUser()
          + " "
          + recommendations.banner().orElse("-");
    }
  }

  private WeldContainer container;

  @BeforeEach
  void start() {
    container =
        new Weld()
            .disableDiscovery()
            .addBeanClasses(
                OverloadProducers.class,
                CurrentRequest.class,
                SkipWhenDegradedInterceptor.class,
                Requests.class,
                Recommendations.class,
                Page.class)
            .initialize();
  }

  @AfterEach
  void stop() {
    container.shutdown();
  }

  private static OverloadContext context(String endpoint, double quality) {
    OverloadContext ctx = mock(OverloadContext.class);
    when(ctx.endpoint()).thenReturn(endpoint);
    when(ctx.quality()).thenReturn(quality);
    return ctx;
  }

  private String serve(OverloadContext ctx) {
    container.select(Requests.class).get().next(ctx);
    RequestContextController request = container.select(RequestContextController.class).get();
    request.activate();
    try {
      return container.select(Page.class).get().render();
    } finally {
      request.deactivate();
    }
  }

  @Test
  void eachRequestScopedBeanSeesItsRequestsContextAndQuality() {
    assertThat(serve(context("search", 1.0))).isEqualTo("search 1.0 [a, b] sale");
    assertThat(serve(context("catalogue", 0.7))).isEqualTo("catalogue 0.7 [a, b] sale");
  }

  @Test
  void optionalWorkIsSkippedBelowItsQualityAndRunsAgainAbove() {
    Recommendations recommendations = container.select(Recommendations.class).get();
    assertThat(serve(context("search", 0.3))).isEqualTo("search 0.3 [] -");
    assertThat(recommendations.calls()).isZero();
    assertThat(serve(context("search", 0.5))).isEqualTo("search 0.5 [a, b] sale");
    assertThat(recommendations.calls()).isEqualTo(2);
  }

  @Test
  void emptyAnswersMatchTheReturnType() {
    assertThat(SkipWhenDegradedInterceptor.empty(int.class)).isEqualTo(0);
    assertThat(SkipWhenDegradedInterceptor.empty(boolean.class)).isEqualTo(false);
    assertThat((String[]) SkipWhenDegradedInterceptor.empty(String[].class)).isEmpty();
    assertThat(SkipWhenDegradedInterceptor.empty(String.class)).isNull();
  }
}
