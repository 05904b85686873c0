package org.overloadcontrol.sample.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;

/** The quick start as written serves its search handler through the overload handler. */
class SearchServerTest {

  @Test
  void theSearchIsServedBehindTheOverloadHandler() throws Exception {
    Server server = SearchServer.start(0);
    try {
      URI search = server.getURI().resolve("/search/shoes");
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(search).timeout(Duration.ofSeconds(10)).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("results for /search/shoes\n");
      assertThat(server.getHandler()).isInstanceOf(org.overloadcontrol.jetty.OverloadHandler.class);
    } finally {
      server.stop();
    }
  }
}
