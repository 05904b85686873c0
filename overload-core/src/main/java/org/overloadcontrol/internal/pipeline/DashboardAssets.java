package org.overloadcontrol.internal.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;

/**
 * The live dashboard's files, for every adapter that serves it (the servlet filter's status
 * servlet, the Jetty handler's status handler): its page, script and style from the
 * {@code overload-dashboard} module, and Chart.js from its WebJar, so the dashboard needs no
 * internet. The page polls {@code ./status} (the status document, {@code StatusJson}) every second.
 * Without the module on the classpath the adapters answer {@link #MISSING} with 404.
 */
public final class DashboardAssets {

  /** The Chart.js build the page loads, by this name, next to the page. */
  public static final String CHART_JS = "chart.umd.js";

  /** What an adapter answers, with 404, when the dashboard module is not in the application. */
  public static final String MISSING =
      "404: the overload-control dashboard is not in this"
          + " application; add the module overload-dashboard.";

  private static final String DASHBOARD = "/org/overloadcontrol/servlet/dashboard/";
  private static final Map<String, String> TYPES =
      Map.of(
          "index.html",
          "text/html; charset=utf-8",
          "dashboard.js",
          "text/javascript; charset=utf-8",
          "dashboard.css",
          "text/css; charset=utf-8",
          CHART_JS,
          "text/javascript; charset=utf-8");

  private DashboardAssets() {}

  /** Whether {@code name} is one of the dashboard's files (known whether or not it is installed). */
  public static boolean isAsset(String name) {
    return TYPES.containsKey(name);
  }

  /** Whether the dashboard module (its page) is on the classpath. */
  public static boolean installed() {
    return DashboardAssets.class.getResource(DASHBOARD + "index.html") != null;
  }

  /** The content type of the dashboard's file {@code name}, or null when it has none such. */
  public static String contentType(String name) {
    return TYPES.get(name);
  }

  /**
   * The dashboard's file {@code name} ({@code index.html}, {@code dashboard.js},
   * {@code dashboard.css}, {@link #CHART_JS}), or null when it has none such or the module or
   * the Chart.js WebJar is missing; the caller closes it.
   */
  public static InputStream open(String name) throws IOException {
    if (!TYPES.containsKey(name)) {
      return null;
    }
    String path = CHART_JS.equals(name) ? chartJsPath() : DASHBOARD + name;
    return path == null ? null : DashboardAssets.class.getResourceAsStream(path);
  }

  /**
   * Where the Chart.js WebJar keeps its UMD build, or null without the WebJar; the version
   * comes from the WebJar's own Maven metadata, so upgrading the dependency needs no code
   * change.
   */
  static String chartJsPath() throws IOException {
    Properties pom = new Properties();
    try (InputStream in =
        DashboardAssets.class.getResourceAsStream(
            "/META-INF/maven/org.webjars.npm/chart.js/pom.properties")) {
      if (in == null) {
        return null;
      }
      pom.load(in);
    }
    return "/META-INF/resources/webjars/chart.js/"
        + pom.getProperty("version")
        + "/dist/"
        + CHART_JS;
  }
}
