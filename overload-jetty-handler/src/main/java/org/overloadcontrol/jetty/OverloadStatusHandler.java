package org.overloadcontrol.jetty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.internal.pipeline.DashboardAssets;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.StatusGate;
import org.overloadcontrol.metrics.Scrape;

/**
 * The status, metrics and live dashboard of an {@link OverloadHandler}, for servers without
 * servlets: what the filter's {@code OverloadStatusServlet} serves to WAR users, under a path
 * prefix ({@code /overload} unless set):
 *
 * <ul>
 *   <li>{@code /overload/status}: the status document, JSON (the same document as the
 *       servlet's; {@link #statusJson} in code);</li>
 *   <li>{@code /overload/metrics}: the metrics in the Prometheus text format, when a metrics
 *       binding writes it (the {@code overload-metrics-prometheus} module), else 404;</li>
 *   <li>{@code /overload/}: the dashboard.</li>
 * </ul>
 *
 * <p>It wraps the overload handler, so that the status is never admission-controlled and keeps
 * answering while the server sheds load; every other request passes on to it:
 * {@code server.setHandler(new OverloadStatusHandler(overload))}. It starts the handler's
 * observability (the metrics, in the application's registry when {@link #setMetricRegistry}
 * names one; JMX when {@code metrics.jmx} is on; the overload log) after the handler started,
 * renews it after each applied reload, and closes it before the handler stops.
 *
 * <p>Access as the servlet's ({@link StatusGate}): loopback clients only, unless
 * {@code status.allow} lists addresses or CIDR blocks; others get 403. Jetty core has no user
 * roles, so {@code status.role} grants nothing here.
 */
public class OverloadStatusHandler extends Handler.Wrapper {

  private final OverloadHandler overload;
  private String pathPrefix = "/overload";
  private Object metricRegistry;
  private volatile Running running;

  private record Running(ObservabilityHandle observability, StatusGate gate) {}

  /** The status of {@code overload}, which this handler wraps. */
  public OverloadStatusHandler(OverloadHandler overload) {
    super(Objects.requireNonNull(overload, "overload"));
    this.overload = overload;
  }

  /** The path under which the status is served, e.g. {@code /overload}; set before start. */
  public void setPathPrefix(String prefix) {
    String p = Objects.requireNonNull(prefix, "prefix").strip();
    if (!p.startsWith("/") || p.endsWith("/")) {
      throw new IllegalArgumentException(
          "a path prefix starts with '/' and does not end with" + " it: " + prefix);
    }
    this.pathPrefix = p;
  }

  /** The path under which the status is served. */
  public String getPathPrefix() {
    return pathPrefix;
  }

  /**
   * The application's metric registry the metrics are registered in (a Micrometer
   * {@code MeterRegistry}, a Dropwizard {@code MetricRegistry}: the metrics module on the class
   * path says which), as WAR users set it as a servlet-context attribute; null, the default:
   * the module's own. Read when this handler starts.
   */
  public void setMetricRegistry(Object registry) {
    this.metricRegistry = registry;
  }

  /** The registry set with {@link #setMetricRegistry}, or null. */
  public Object getMetricRegistry() {
    return metricRegistry;
  }

  /**
   * The status document (JSON) {@code <path>/status} serves, read now: each endpoint's state,
   * limit, queues and counts, the bandwidth groups and the virtual queue when configured, the
   * configuration's version (docs/observability.md); null when stopped.
   */
  public String statusJson() {
    Running r = running;
    return r == null ? null : r.observability().statusJson();
  }

  /** After an applied reload: the observability over the new engine, the same metric names. */
  private final Runnable renew = this::renew;

  @Override
  protected void doStart() throws Exception {
    super.doStart();
    running = observe();
    overload.onReload(renew);
  }

  private Running observe() {
    OverloadRuntime runtime = overload.runtime();
    if (runtime == null) {
      throw new IllegalStateException("the overload handler is not running");
    }
    ObservabilityHandle observability = ObservabilityHandle.start(runtime, metricRegistry, "");
    return new Running(observability, observability.statusGate(null, null));
  }

  /**
   * Closes the observability of the replaced engine (which removes its metrics) and builds it
   * over the new one; called under the handler's reload, never with a request.
   */
  private void renew() {
    Running old = running;
    if (old == null) {
      return;
    }
    old.observability().close();
    running = observe();
  }

  @Override
  protected void doStop() throws Exception {
    overload.removeReloadListener(renew);
    Running r = running;
    running = null;
    if (r != null) {
      r.observability().close();
    }
    super.doStop();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    if (!path.equals(pathPrefix) && !path.startsWith(pathPrefix + "/")) {
      return super.handle(request, response, callback);
    }
    Running r = running;
    if (!HttpMethod.GET.is(request.getMethod())) {
      Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
    } else if (r == null) {
      text(
          response,
          callback,
          HttpStatus.SERVICE_UNAVAILABLE_503,
          "503: the overload-control handler is not running.");
    } else if (!allowed(request, r)) {
      text(
          response,
          callback,
          HttpStatus.FORBIDDEN_403,
          "403 Forbidden: the overload-control"
              + " status is served to loopback clients and to the addresses in status.allow.");
    } else if (path.equals(pathPrefix)) {
      // Without the trailing slash the dashboard's relative links would miss this handler.
      Response.sendRedirect(request, response, callback, pathPrefix + "/");
    } else {
      serve(path.substring(pathPrefix.length()), r, response, callback);
    }
    return true;
  }

  private static void serve(String path, Running r, Response response, Callback callback)
      throws IOException {
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    switch (path) {
      case "/status" -> {
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        write(response, callback, "application/json", r.observability().statusJson());
      }
      case "/metrics" -> {
        Optional<Scrape> scrape = r.observability().scrape();
        if (scrape.isEmpty()) {
          text(
              response,
              callback,
              HttpStatus.NOT_FOUND_404,
              "404: no metrics binding writes the"
                  + " Prometheus text format; add the module overload-metrics-prometheus.");
          return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        scrape.get().write(body);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, scrape.get().contentType());
        response.write(true, ByteBuffer.wrap(body.toByteArray()), callback);
      }
      default -> asset(path.equals("/") ? "index.html" : path.substring(1), response, callback);
    }
  }

  private static void asset(String name, Response response, Callback callback) throws IOException {
    try (InputStream in = DashboardAssets.open(name)) {
      if (in == null) {
        text(response, callback, HttpStatus.NOT_FOUND_404, DashboardAssets.MISSING);
        return;
      }
      response
          .getHeaders()
          .put(
              HttpHeader.CACHE_CONTROL,
              DashboardAssets.CHART_JS.equals(name) ? "max-age=86400" : "no-cache");
      response
          .getHeaders()
          .put(
              "Content-Security-Policy",
              "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, DashboardAssets.contentType(name));
      response.write(true, ByteBuffer.wrap(in.readAllBytes()), callback);
    }
  }

  private boolean allowed(Request request, Running r) {
    return r.gate()
        .allows(
            Request.getRemoteAddr(request),
            request.getHeaders().get("Forwarded"),
            request.getHeaders().get("X-Forwarded-For"),
            role -> false);
  }

  private static void text(Response response, Callback callback, int status, String body) {
    response.setStatus(status);
    write(response, callback, "text/plain; charset=utf-8", body + "\n");
  }

  private static void write(Response response, Callback callback, String type, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    response
        .getHeaders()
        .put(HttpHeader.CONTENT_TYPE, type.contains("charset") ? type : type + "; charset=utf-8");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }
}
