package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What every Jakarta REST implementation's test checks over HTTP, for {@link ShopResource}
 * (or a resource like it) behind a filter whose endpoints with a target start at 5 requests/s, one token deep.
 */
final class ShopChecks {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private ShopChecks() {}

  private static HttpResponse<String> send(URI base, String method, String path) throws Exception {
    return CLIENT.send(
        HttpRequest.newBuilder(base.resolve(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * @param base the resource's URI, ending in "/"
   * @param resource the resource class's simple name
   */
  static void methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(URI base, String resource)
      throws Exception {
    // The class's @RequestClass applies where a method sets none; a method's own wins.
    assertThat(send(base, "GET", "catalogue").body())
        .isEqualTo(resource + "#catalogue browse null");
    assertThat(send(base, "GET", "search").body()).isEqualTo(resource + "#search browse PT2S");
    assertThat(send(base, "POST", "orders").body()).isEqualTo(resource + "#order order PT0.001S");

    // Orders (a target: admitted at 5/s) arrive faster than that; the catalogue (no target)
    // is never throttled, though both are served by the one servlet of the implementation.
    int ordersRefused = 0;
    int catalogueRefused = 0;
    for (int i = 0; i < 30; i++) {
      if (refused(send(base, "POST", "orders").statusCode())) {
        ordersRefused++;
      }
      if (refused(send(base, "GET", "catalogue").statusCode())) {
        catalogueRefused++;
      }
    }
    assertThat(catalogueRefused).isZero();
    assertThat(ordersRefused).isPositive();
  }

  /** The filter's refusal: 503, or 429 in Tomcat, which closes the connection after a 503. */
  private static boolean refused(int status) {
    return status == 503 || status == 429;
  }
}
