package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The filter-only mode on a runtime without servlets: Jersey 3 on the JDK's HTTP server, over
 * HTTP on 127.0.0.1, with {@link OverloadRestFeature} registered as the application's only
 * overload control. Method annotations make separate endpoints; a resource method that throws
 * ends {@code FAILED}; under concurrent load with two permits, and clients that hang up while
 * they wait, every request ends in exactly one outcome and no permit or wait is left behind.
 */
class JerseyOnJdkHttpIT {

  private static final int PERMITS = 2;

  private static OverloadRestFeature overload;
  private static HttpServer server;
  private static ExecutorService workers;
  private static URI base;

  @BeforeAll
  static void start() {
    overload =
        OverloadRestFeature.builder()
            .resources(GateResource.class)
            // Endpoints with a target start at 5 requests/s, one token deep (ShopChecks).
            .put("admission.controller", "rate")
            .put("controller.initialRate", "5")
            .put("controller.bucketDepth", "1")
            .put("queue.permits", Integer.toString(PERMITS))
            .put("queue.maxWait", "600ms")
            .start();
    ResourceConfig application = new ResourceConfig(GateResource.class).register(overload);
    server =
        JdkHttpServerFactory.createHttpServer(
            URI.create("http://127.0.0.1:0/api/"), application, false);
    // The JDK server runs requests on its dispatcher thread unless given workers.
    workers = Executors.newFixedThreadPool(16);
    server.setExecutor(workers);
    server.start();
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/gate/");
  }

  @AfterAll
  static void stop() {
    server.stop(0);
    workers.shutdownNow();
    overload.close();
  }

  @Test
  void eachResourceMethodHasItsOwnEndpointTargetAndClassAndOnlyTheOverloadedOneIsShed()
      throws Exception {
    ShopChecks.methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(base, "GateResource");
  }

  @Test
  void aResourceMethodThatThrowsEndsFailedOnce() throws Exception {
    HttpResponse<String> response = get(HttpClient.newHttpClient(), "boom");

    assertThat(response.statusCode()).isEqualTo(500);
    // The client can read the 500 before the response filter has reported it.
    awaitSettled();
    EndpointClass boom = classOf("GateResource#boom");
    assertThat(boom.outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(outcomes(boom)).isEqualTo(boom.arrivalCount());
  }

  @Test
  void everyRequestEndsOnceAndNothingIsLeftHeldIncludingClientsThatLeftWhileWaiting()
      throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    List<CompletableFuture<HttpResponse<String>>> answered = new ArrayList<>();
    List<Socket> leaving = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      answered.add(
          client.sendAsync(
              HttpRequest.newBuilder(base.resolve("slow")).build(),
              HttpResponse.BodyHandlers.ofString()));
      if (i % 2 == 0) {
        leaving.add(hangingRequest("slow"));
      }
    }
    // They wait behind two permits held 150 ms each; hang up while they do.
    Thread.sleep(100);
    for (Socket s : leaving) {
      s.close();
    }

    int ran = 0;
    int refused = 0;
    for (CompletableFuture<HttpResponse<String>> f : answered) {
      int status = f.get(10, TimeUnit.SECONDS).statusCode();
      assertThat(status).isIn(200, 503);
      if (status == 200) {
        ran++;
      } else {
        refused++;
      }
    }
    awaitSettled();
    EndpointClass slow = classOf("GateResource#slow");
    assertThat(slow.arrivalCount()).isEqualTo(18);
    assertThat(outcomes(slow)).isEqualTo(18);
    assertThat(slow.enqueuedCount()).as("requests waited for a permit").isPositive();
    assertThat(ran + refused).isEqualTo(12);
    assertThat(slow.outcomeCount(Outcome.EXPIRED))
        .as("the 600 ms wait expires for some of 18 requests of 150 ms on 2 permits")
        .isPositive();
    assertThat(GateResource.SLOW_RUNS.get())
        .isEqualTo(slow.outcomeCount(Outcome.COMPLETED) + slow.outcomeCount(Outcome.FAILED));
  }

  private static HttpResponse<String> get(HttpClient client, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A client that sends its request and then waits, until the test closes its socket. */
  private static Socket hangingRequest(String path) throws Exception {
    Socket socket = new Socket(base.getHost(), base.getPort());
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET " + base.resolve(path).getRawPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** Waits until no request holds a permit or waits, and every arrival has its outcome. */
  private static void awaitSettled() {
    OverloadEngine engine = overload.runtime().engine();
    await("settled")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () -> {
              assertThat(engine.queues().permitsInUse()).isZero();
              assertThat(engine.queues().waitingCount()).isZero();
              for (ControlledEndpoint e : engine.endpoints()) {
                for (EndpointClass c : e.classes()) {
                  assertThat(outcomes(c)).as(e.name() + " outcomes").isEqualTo(c.arrivalCount());
                }
              }
            });
  }

  private static long outcomes(EndpointClass c) {
    long sum = 0;
    for (Outcome o : Outcome.values()) {
      sum += c.outcomeCount(o);
    }
    return sum;
  }

  private static EndpointClass classOf(String endpoint) {
    return overload.runtime().engine().endpoint(endpoint).classes().get(0);
  }
}
