package org.overloadcontrol.it.peers;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.EnumSet;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.overloadcontrol.it.support.ContainerHooks;

/**
 * The peers our filter is compared with in the experiments, installed around an unchanged WAR:
 * Jetty 12's {@link QoSHandler} around the web application, and Netflix concurrency-limits'
 * filter ({@link ConcurrencyLimitFilter}) ahead of the application's own filters.
 */
public final class Peers {

  private Peers() {}

  /**
   * Jetty's {@link QoSHandler} around the web application: at most {@code maxRequests}
   * requests at once, the rest suspended (priority 0, FIFO) for at most {@code maxSuspend}
   * (zero: forever, the handler's default), at most 1024 suspended (its default); beyond that,
   * or when the wait expires, 503 without {@code Retry-After}.
   */
  public static ContainerHooks qosHandler(
      ContainerHooks hooks, int maxRequests, Duration maxSuspend) {
    return hooks.withJettyWrapper(
        app -> {
          QoSHandler qos = new QoSHandler(app);
          qos.setMaxRequestCount(maxRequests);
          qos.setMaxSuspend(maxSuspend);
          return qos;
        });
  }

  /**
   * Netflix concurrency-limits: a {@link SimpleLimiter} with {@code limit} (e.g.
   * {@code VegasLimit.newDefault()}) in a {@link ConcurrencyLimitFilter} on every request,
   * registered ahead of the application's web.xml filters, refusing with
   * {@code throttleStatus}.
   */
  public static ContainerHooks concurrencyLimit(
      ContainerHooks hooks, Limit limit, int throttleStatus) {
    ServletContainerInitializer install =
        (classes, context) -> {
          SimpleLimiter<HttpServletRequest> limiter =
              SimpleLimiter.newBuilder().limit(limit).named("experiment").build();
          FilterRegistration.Dynamic f =
              context.addFilter(
                  "concurrency-limits", new ConcurrencyLimitFilter(limiter, throttleStatus));
          f.setAsyncSupported(true);
          f.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        };
    return hooks.withInitializer(install);
  }
}
