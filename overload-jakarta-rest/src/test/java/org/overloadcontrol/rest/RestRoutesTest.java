package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.internal.config.FrameworkRoutes;

class RestRoutesTest {

  interface ItemsApi {
    @GET
    @Path("{id}")
    String item(String id);
  }

  @Path("/items")
  public static class Items implements ItemsApi {
    @Override
    public String item(String id) {
      return id;
    }

    @DELETE
    @Path("{id}")
    @Endpoint("removal")
    public void remove(String id) {}

    @Path("{id}/reviews")
    public Object reviews(String id) {
      return null;
    }

    public String notAResourceMethod() {
      return "";
    }
  }

  @Test
  void resourceMethodsInheritedAnnotationsAndLocatorsAreRoutedBelowTheApplicationPath() {
    FrameworkRoutes routes =
        (FrameworkRoutes)
            RestRoutes.of("/api/*", List.of(Items.class, String.class)).attributeValue();
    assertThat(routes.endpointOf("GET", "/api/items/7")).isEqualTo("Items#item");
    assertThat(routes.endpointOf("DELETE", "/api/items/7")).isEqualTo("removal");
    assertThat(routes.endpointOf("PUT", "/api/items/7/reviews/3")).isEqualTo("Items#reviews");
    assertThat(routes.endpointOf("GET", "/items/7")).isNull();
    assertThat(routes.endpoints())
        .containsExactlyInAnyOrder("Items#item", "removal", "Items#reviews");
  }

  @Test
  void theApplicationPathIsNormalised() {
    assertThat(RestRoutes.normalise("api")).isEqualTo("/api");
    assertThat(RestRoutes.normalise("/api/")).isEqualTo("/api");
    assertThat(RestRoutes.normalise("/")).isEmpty();
    assertThat(RestRoutes.normalise(null)).isEmpty();
  }
}
