package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.MishandledRequestsIT.Answer;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.servlet.OverloadFilter;
import org.overloadcontrol.servlet.OverloadStatusServlet;

/**
 * Issue 33, item 6: the filter in an embedded Jetty {@link ServletContextHandler} built in
 * code, without a class loader of its own (the context answers null). The status servlet must
 * pass uncontrolled there as in a WAR: while the only permit is held, {@code /overload/status}
 * answers at once and is never counted as an endpoint.
 */
class EmbeddedStatusIT {

  @Test
  void theStatusServletIsNotControlledInAContextWithoutAClassLoader() throws Exception {
    // Another test's "holder" left here would end the wait for this one's before it arrives.
    MishapServlet.STARTED.clear();
    Server server = new Server(new QueuedThreadPool(48, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    FilterHolder filter = new FilterHolder(OverloadFilter.class);
    filter.setInitParameter("queue.permits", "1");
    filter.setInitParameter("queue.maxWait", "5s");
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder work = new ServletHolder("work", MishapServlet.class);
    work.setAsyncSupported(true);
    context.addServlet(work, "/work");
    context.addServlet(
        new ServletHolder("overload-status", OverloadStatusServlet.class), "/overload/*");
    server.setHandler(context);
    HttpClient client = new HttpClient();
    server.start();
    client.start();
    try {
      assertThat(context.getClassLoader()).as("the context's own class loader").isNull();
      String base = "http://127.0.0.1:" + connector.getLocalPort();
      CompletableFuture<Answer> holder =
          MishandledRequestsIT.send(client.newRequest(base + "/work?ms=3000&id=holder"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (!MishapServlet.STARTED.contains("holder") && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(MishapServlet.STARTED).as("the holder runs").contains("holder");
      long start = System.nanoTime();
      ContentResponse status =
          client.newRequest(base + "/overload/status").timeout(10, TimeUnit.SECONDS).send();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.printf("status answered %d after %d ms%n", status.getStatus(), millis);
      assertThat(status.getStatus()).isEqualTo(200);
      assertThat(millis).as("ms the status page took while the permit was held").isLessThan(1_000);
      OverloadEngine engine = FilterEngine.of(context.getServletContext());
      assertThat(engine.endpoints().stream().map(ControlledEndpoint::name))
          .as("endpoints the engine counted")
          .containsExactly("work");
      assertThat(holder.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
    } finally {
      client.stop();
      server.stop();
      MishapServlet.STARTED.clear();
    }
  }
}
