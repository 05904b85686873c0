package org.overloadcontrol.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** A real Jetty 12 server on 127.0.0.1 (a free port) and an HTTP client, for one test. */
final class JettyHarness implements AutoCloseable {

  final Server server;
  final ServerConnector connector;
  final HttpClient client;

  JettyHarness(Handler handler) throws Exception {
    QueuedThreadPool pool = new QueuedThreadPool(24, 4);
    pool.setName("jetty-test");
    server = new Server(pool);
    connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(handler);
    server.start();
    QueuedThreadPool clientPool = new QueuedThreadPool(16, 2);
    clientPool.setName("client");
    client = new HttpClient();
    client.setExecutor(clientPool);
    client.setMaxConnectionsPerDestination(512);
    // Tests send the cookies they mean to send; a store would replay Set-Cookie answers.
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.start();
  }

  String uri(String path) {
    return "http://127.0.0.1:" + connector.getLocalPort() + path;
  }

  Request request(String path) {
    return client.newRequest(uri(path)).timeout(20, TimeUnit.SECONDS);
  }

  ContentResponse get(String path) throws Exception {
    return request(path).send();
  }

  @Override
  public void close() {
    // Unchecked, so that try-with-resources need not handle an InterruptedException it
    // cannot get (lint "try").
    try {
      client.stop();
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the test server", e);
    }
  }

  /** Writes a small text body and completes the callback. */
  static void answer(Response response, Callback callback, String text) {
    response.getHeaders().put("Content-Type", "text/plain;charset=utf-8");
    response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
  }
}
