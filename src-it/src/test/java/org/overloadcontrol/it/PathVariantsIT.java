package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.PathEchoServlet;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.jetty.OverloadHandler;

/**
 * Issue 33, item 5: every form of a path that the container maps to a controlled or queued
 * servlet is controlled or queued as that path is. Servlet {@code page} serves
 * {@code /app/checkout} and {@code /app/checkout/*}, {@code status} serves {@code /app/status}
 * and {@code other} the rest of {@code /app/*}; each feature configured by path is set on
 * {@code /app/checkout}, and each form of that path is sent byte for byte over a socket (an
 * HTTP client would normalise some of them first) to the filter in Jetty, the filter in Tomcat
 * and the Jetty handler in front of the same servlets. The servlet says which servlet ran and
 * what overload control made of the request; a form that reached {@code page} must have been
 * queued, routed to its endpoint, or controlled, as {@code /app/checkout} itself.
 */
class PathVariantsIT {

  @TempDir static Path apps;

  /** Forms of {@code /app/checkout}: each is that path, or the container refuses it. */
  static final List<String> FORMS =
      List.of(
          "/app/checkout",
          "/app/checkout/",
          "/app/checkout//",
          "/app/checkout/.",
          "/app/checkout/./",
          "/app/checkout;x=1",
          "/app/checkout;jsessionid=abc",
          "/app/checkout/;x",
          "/app;x/checkout",
          "/app/checkout;x/",
          "/app//checkout",
          "//app/checkout",
          "/app/./checkout",
          "/app/x/../checkout",
          "/app/x/..;/checkout",
          "/app/status/../checkout",
          "/app/status;/../checkout",
          "/app/status/..;/checkout",
          "/app/%63heckout",
          "/%61pp/checkout",
          "/app/checkout%2F",
          "/app/checkout%2f",
          "/app/checkout%3Bx",
          "/app/checkout/%2e",
          "/app/%2e/checkout",
          "/app/x/%2e%2e/checkout",
          "/app/checkout%20",
          "/app/Checkout",
          "/APP/checkout",
          "/app/checkout?x=1",
          "/app/checkout/?x=1",
          "/app/checkout%2F?x=1",
          "/app/checkout/static;/..",
          "/app/checkout/static;/../",
          "/app/checkout/static/..;/",
          "/app/checkout/static/%2e%2e/");

  enum Adapter {
    FILTER_IN_JETTY,
    FILTER_IN_TOMCAT,
    HANDLER_IN_JETTY
  }

  enum Feature {
    VIRTUAL_QUEUE(
        Map.of(
            "virtualQueue.enabled", "true",
            "virtualQueue.paths", "/app/checkout",
            "virtualQueue.capacity", "1",
            "virtualQueue.maxWait", "1h")),
    ENDPOINT_PATHS(Map.of("endpoints.checkout.paths", "/app/checkout")),
    BYPASS_PATHS(Map.of("bypass.paths", "/app/status/*,/app/checkout/static/*"));

    final Map<String, String> keys;

    Feature(Map<String, String> keys) {
      this.keys = keys;
    }

    /** What is wrong with a reply to a form of /app/checkout; null when nothing is. */
    String problem(Reply r) {
      if (this == BYPASS_PATHS) {
        // No form of /app/checkout is a probe path, whichever servlet the container chose.
        return r.header("X-Servlet") != null && "none".equals(r.header("X-Endpoint"))
            ? "reached a servlet uncontrolled"
            : null;
      }
      if (!"page".equals(r.header("X-Servlet"))) {
        return null;
      }
      return switch (this) {
        case VIRTUAL_QUEUE -> "reached the queued servlet without a token";
        case ENDPOINT_PATHS ->
            "checkout".equals(r.header("X-Endpoint"))
                ? null
                : "reached its servlet as endpoint " + r.header("X-Endpoint");
        case BYPASS_PATHS -> null;
      };
    }
  }

  record Reply(int status, Map<String, String> headers) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return status
          + (header("X-Servlet") == null
              ? ""
              : " " + header("X-Servlet") + " " + header("X-Path") + " as " + header("X-Endpoint"));
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Adapter a : Adapter.values()) {
      for (Feature f : Feature.values()) {
        all.add(Arguments.of(a, f));
      }
    }
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void noFormOfAControlledPathReachesItsServletUncontrolled(Adapter adapter, Feature feature)
      throws Exception {
    try (Running app = start(adapter, feature + "-" + adapter, feature.keys)) {
      if (feature == Feature.VIRTUAL_QUEUE) {
        takeTheSlotsToTheNextSecond(app.port());
      }
      Map<String, Reply> replies = new LinkedHashMap<>();
      List<String> wrong = new ArrayList<>();
      for (String form : FORMS) {
        Reply r = send(app.port(), form);
        replies.put(form, r);
        String problem = feature.problem(r);
        if (problem != null) {
          wrong.add(form + " " + problem + " (" + r + ")");
        }
      }
      System.out.printf("[%s %s]%n", adapter, feature);
      replies.forEach((form, r) -> System.out.printf("  %-32s %s%n", form, r));
      assertThat(wrong).as("forms of /app/checkout").isEmpty();
      // The probe can see a bypass: the trailing slash reaches the servlet in every container.
      assertThat(replies.get("/app/checkout/").header("X-Servlet"))
          .isEqualTo(feature == Feature.VIRTUAL_QUEUE ? null : "page");
      if (feature == Feature.BYPASS_PATHS) {
        assertThat(send(app.port(), "/app/status").header("X-Endpoint")).isEqualTo("none");
      }
    }
  }

  /**
   * Sends {@code /app/checkout} until the queue tells a request to wait: this second's slot and
   * the next are then taken, and every later request without a token is given a later slot, so
   * none may reach the servlet. One request is not enough: on a cold container it can end after
   * its own second, and the next second's slot is then free for whichever request comes first.
   */
  private static void takeTheSlotsToTheNextSecond(int port) throws Exception {
    for (int i = 0; i < 5; i++) {
      if (send(port, "/app/checkout").header("X-Servlet") == null) {
        return;
      }
    }
    throw new AssertionError("the virtual queue let five requests in a row through");
  }

  /** A running application: its port, and its stop. */
  interface Running extends AutoCloseable {
    int port();

    @Override
    void close();
  }

  private static Running start(Adapter adapter, String name, Map<String, String> keys)
      throws Exception {
    if (adapter == Adapter.HANDLER_IN_JETTY) {
      ServletContextHandler context = new ServletContextHandler("/");
      ServletHolder page = new ServletHolder("page", PathEchoServlet.class);
      context.addServlet(page, "/app/checkout");
      context.addServlet(page, "/app/checkout/*");
      context.addServlet(new ServletHolder("status", PathEchoServlet.class), "/app/status");
      context.addServlet(new ServletHolder("other", PathEchoServlet.class), "/app/*");
      OverloadHandler handler =
          OverloadHandler.builder().putAll(keys).defaultEndpoint("work").handler(context).build();
      Server server = new Server(new QueuedThreadPool(16, 2));
      ServerConnector connector = new ServerConnector(server, 1, 1);
      connector.setHost(Deployment.HOST);
      server.addConnector(connector);
      server.setHandler(handler);
      server.start();
      return new Running() {
        @Override
        public int port() {
          return connector.getLocalPort();
        }

        @Override
        public void close() {
          try {
            server.stop();
          } catch (Exception e) {
            throw new IllegalStateException("stopping the server", e);
          }
        }
      };
    }
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(keys)
            .withServlet(
                "page", PathEchoServlet.class, Map.of(), "/app/checkout", "/app/checkout/*")
            .withServlet("status", PathEchoServlet.class, Map.of(), "/app/status")
            .withServlet("other", PathEchoServlet.class, Map.of(), "/app/*")
            .writeUnder(apps, name);
    WebContainer container =
        (adapter == Adapter.FILTER_IN_JETTY ? ContainerKind.JETTY : ContainerKind.TOMCAT)
            .start(Deployment.of(dir).withContextPath(""));
    return new Running() {
      @Override
      public int port() {
        return container.port();
      }

      @Override
      public void close() {
        container.close();
      }
    };
  }

  /** Sends {@code target} as written, on its own connection, and reads the reply's head. */
  static Reply send(int port, String target) throws Exception {
    try (Socket socket = new Socket(Deployment.HOST, port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET "
                  + target
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n"
                  + "Connection: close\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      String text = bytes.toString(StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      String[] lines = (end < 0 ? text : text.substring(0, end)).split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.put(
              lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
              lines[i].substring(colon + 1).trim());
        }
      }
      return new Reply(status, headers);
    }
  }
}
