package org.overloadcontrol.servlet;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.DashboardAssets;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.overloadcontrol.internal.pipeline.StatusGate;
import org.overloadcontrol.metrics.Scrape;

/**
 * The status, metrics and live dashboard of the overload filter, under one mapping:
 *
 * <pre>
 * &lt;servlet&gt;
 *   &lt;servlet-name&gt;overload-status&lt;/servlet-name&gt;
 *   &lt;servlet-class&gt;org.overloadcontrol.servlet.OverloadStatusServlet&lt;/servlet-class&gt;
 * &lt;/servlet&gt;
 * &lt;servlet-mapping&gt;
 *   &lt;servlet-name&gt;overload-status&lt;/servlet-name&gt;
 *   &lt;url-pattern&gt;/overload/*&lt;/url-pattern&gt;
 * &lt;/servlet-mapping&gt;
 * </pre>
 *
 * <ul>
 *   <li>{@code /overload/status}: the status document, JSON
 *       ({@code org.overloadcontrol.internal.metrics.StatusJson});</li>
 *   <li>{@code /overload/metrics}: the metrics in the Prometheus text format, when a metrics
 *       binding writes it (the {@code overload-metrics-prometheus} module), else 404;</li>
 *   <li>{@code /overload/}: the dashboard, which polls the status every second and draws it
 *       with Chart.js served from the classpath (its WebJar), so it needs no internet; it comes
 *       with the {@code overload-dashboard} module, without which these paths answer 404.</li>
 * </ul>
 *
 * <p>Access ({@link StatusGate}): loopback clients only, unless the init-param or
 * configuration key {@code allow} ({@code status.allow}) lists addresses or CIDR blocks, or
 * {@code role} ({@code status.role}) names a role the authenticated user has; others get 403.
 * The filter lets requests to this servlet through without admission control, so the dashboard
 * keeps working while the application sheds load.
 */
public class OverloadStatusServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  private transient volatile Cached cached;

  /** Access rules for one running filter (they come partly from its configuration). */
  private record Cached(ObservabilityHandle observability, StatusGate gate) {}

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    Cached c = rules(getServletContext().getAttribute(ObservabilityHandle.ATTRIBUTE));
    if (!allowed(request, c)) {
      response.setStatus(HttpServletResponse.SC_FORBIDDEN);
      response.setContentType("text/plain; charset=utf-8");
      response
          .getWriter()
          .println(
              "403 Forbidden: the overload-control status is served to"
                  + " loopback clients, to the addresses in status.allow, and to users in status.role.");
      return;
    }
    String path = request.getPathInfo();
    if (path == null) {
      // Without the trailing slash the dashboard's relative links would miss this servlet.
      response.sendRedirect(request.getRequestURI() + "/");
      return;
    }
    response.setHeader("X-Content-Type-Options", "nosniff");
    switch (path) {
      case "/status" -> status(c, response);
      case "/metrics" -> metrics(c, response);
      case "/", "/index.html" -> asset("index.html", response);
      default -> {
        String name = path.substring(1);
        if (DashboardAssets.isAsset(name)) {
          asset(name, response);
        } else {
          response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
      }
    }
  }

  /** The rules for the filter's observability in {@code attribute}; null when none runs. */
  private Cached rules(Object attribute) throws ServletException {
    Cached c = cached;
    if (c != null && c.observability().isPublishedAs(attribute)) {
      return c;
    }
    ObservabilityHandle o = ObservabilityHandle.of(attribute);
    if (o == null) {
      return null;
    }
    try {
      c = new Cached(o, o.statusGate(getInitParameter("allow"), getInitParameter("role")));
    } catch (OverloadConfigException e) {
      throw new ServletException(e.getMessage(), e);
    }
    cached = c;
    return c;
  }

  /** Applies {@link StatusGate}; before the filter runs, init-params alone decide. */
  private boolean allowed(HttpServletRequest request, Cached c) throws ServletException {
    StatusGate gate;
    if (c != null) {
      gate = c.gate();
    } else {
      try {
        gate = StatusGate.withoutEngine(getInitParameter("allow"), getInitParameter("role"));
      } catch (OverloadConfigException e) {
        throw new ServletException(e.getMessage(), e);
      }
    }
    return gate.allows(
        request.getRemoteAddr(),
        request.getHeader("Forwarded"),
        request.getHeader("X-Forwarded-For"),
        request::isUserInRole);
  }

  private static void status(Cached c, HttpServletResponse response) throws IOException {
    if (c == null) {
      notRunning(response);
      return;
    }
    byte[] body = c.observability().statusJson().getBytes(StandardCharsets.UTF_8);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-store");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private static void metrics(Cached c, HttpServletResponse response) throws IOException {
    if (c == null) {
      notRunning(response);
      return;
    }
    Optional<Scrape> scrape = c.observability().scrape();
    if (scrape.isEmpty()) {
      response.setStatus(HttpServletResponse.SC_NOT_FOUND);
      response.setContentType("text/plain; charset=utf-8");
      response
          .getWriter()
          .println(
              "404: no metrics binding writes the Prometheus text format;"
                  + " add the module overload-metrics-prometheus.");
      return;
    }
    response.setContentType(scrape.get().contentType());
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-store");
    OutputStream out = response.getOutputStream();
    scrape.get().write(out);
    out.flush();
  }

  private static void notRunning(HttpServletResponse response) throws IOException {
    response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setContentType("text/plain; charset=utf-8");
    PrintWriter out = response.getWriter();
    out.println("503: the overload-control filter is not running in this application.");
  }

  private static void asset(String name, HttpServletResponse response) throws IOException {
    try (InputStream in = DashboardAssets.open(name)) {
      if (in == null) {
        response.setStatus(HttpServletResponse.SC_NOT_FOUND);
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().println(DashboardAssets.MISSING);
        return;
      }
      response.setHeader(
          "Cache-Control", DashboardAssets.CHART_JS.equals(name) ? "max-age=86400" : "no-cache");
      response.setHeader(
          "Content-Security-Policy",
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
      response.setContentType(DashboardAssets.contentType(name));
      in.transferTo(response.getOutputStream());
    }
  }
}
