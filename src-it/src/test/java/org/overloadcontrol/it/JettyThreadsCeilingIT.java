package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Issue 32, item 2, in an embedded Jetty that registers no JMX beans: the filter with its
 * defaults still bounds the concurrency limit under the server's request threads (58 of 60), read
 * from the server's pool through the servlet context, so a thread-bound application sheds at
 * the filter instead of queueing in Jetty.
 */
class JettyThreadsCeilingIT {

  @Test
  void theLimitStartsUnderJettysThreadsWithoutJmx() throws Exception {
    Server server = new Server(new QueuedThreadPool(60, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    FilterHolder filter = new FilterHolder(OverloadFilter.class);
    filter.setInitParameter("endpoints.work.target", "100ms");
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    ServletHolder work = new ServletHolder("work", MishapServlet.class);
    work.setAsyncSupported(true);
    context.addServlet(work, "/work");
    server.setHandler(context);
    server.start();
    try {
      // The group is built with the first request to its endpoint.
      HttpResponse<Void> first =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + connector.getLocalPort() + "/work?ms=1&id=a"))
                      .build(),
                  HttpResponse.BodyHandlers.discarding());
      assertThat(first.statusCode()).isEqualTo(200);
      OverloadEngine engine = FilterEngine.of(context.getServletContext());
      assertThat(engine.concurrencyGroups())
          .as("the default group's limit, which starts at its maximum")
          .singleElement()
          .satisfies(g -> assertThat(g.limit()).isEqualTo(58));
    } finally {
      server.stop();
    }
  }
}
