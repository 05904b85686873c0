package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServletRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.peers.ConcurrencyLimitFilter;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.HeldAsyncServlet;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The Jakarta port of Netflix concurrency-limits' filter, in both containers: an asynchronous
 * request holds its token until its response completes (the published javax filter lets it go
 * when {@code doFilter} returns, so a second request would be admitted under a limit of one),
 * and every token comes back exactly once.
 */
class ConcurrencyLimitFilterIT {

  @TempDir Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void anAsynchronousRequestHoldsItsTokenUntilItsResponseCompletes(ContainerKind kind)
      throws Exception {
    SimpleLimiter<HttpServletRequest> limiter =
        SimpleLimiter.newBuilder().limit(FixedLimit.of(1)).build();
    Semaphore returned = new Semaphore(0);
    ServletContainerInitializer install =
        (classes, ctx) -> {
          // Outermost: tells the test when doFilter has returned for a held request.
          Filter signal =
              (req, res, chain) -> {
                chain.doFilter(req, res);
                if (((HttpServletRequest) req).getRequestURI().endsWith("/held")) {
                  returned.release();
                }
              };
          FilterRegistration.Dynamic outer = ctx.addFilter("signal", signal);
          outer.setAsyncSupported(true);
          outer.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
          FilterRegistration.Dynamic f =
              ctx.addFilter("limit", new ConcurrencyLimitFilter(limiter));
          f.setAsyncSupported(true);
          f.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        };
    Path dir =
        new ExplodedWebApp()
            .withServlet("held", HeldAsyncServlet.class, Map.of(), "/held")
            .withServlet("quick", SleepServlet.class, Map.of("serviceTimeMillis", "1"), "/quick")
            .writeUnder(apps, kind.name());
    HeldAsyncServlet.HELD.clear();
    HttpClient http = HttpClient.newHttpClient();
    try (WebContainer container =
        kind.start(Deployment.of(dir).withHooks(ContainerHooks.NONE.withInitializer(install)))) {
      assertThat(get(http, container, "quick").statusCode()).isEqualTo(200);
      assertThat(limiter.getInflight()).as("a synchronous request's token").isZero();

      HeldAsyncServlet.Held first =
          HeldAsyncServlet.sendAndHold(http, container.baseUri().resolve("held"));
      assertThat(returned.tryAcquire(10, TimeUnit.SECONDS)).as("doFilter returned").isTrue();

      // doFilter has returned for the first request, but its response is not complete.
      assertThat(limiter.getInflight()).isEqualTo(1);
      HttpResponse<String> second = get(http, container, "quick");
      assertThat(second.statusCode()).isEqualTo(ConcurrencyLimitFilter.TOO_MANY_REQUESTS);
      assertThat(second.body()).isEqualTo("Concurrency limit exceeded");

      HeldAsyncServlet.answer(first.async());
      assertThat(first.response().get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
      // The response reaches the client just before the container's completion callbacks run.
      await("the permit back").until(() -> limiter.getInflight() == 0);
      assertThat(get(http, container, "quick").statusCode()).isEqualTo(200);
      assertThat(limiter.getInflight()).isZero();
    }
  }

  private static HttpResponse<String> get(HttpClient http, WebContainer c, String path)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(c.baseUri().resolve(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
