package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.FrameworkRoutes;

class HandlerRoutesTest {

  @ResponseTimeTarget("2s")
  @RequestClass(value = "browse", rank = 1)
  static class Shop {
    public void list() {}

    @ResponseTimeTarget("300ms")
    @RequestClass(value = "buy", rank = 7, kind = RequestKind.TRANSACTION, utility = 40)
    public void order() {}

    @Endpoint("reports")
    @Degradable(minQuality = 0.3)
    public void report() {}
  }

  @Endpoint("shared")
  static class Shared {
    @ResponseTimeTarget("1s")
    public void a() {}

    @ResponseTimeTarget("2s")
    public void b() {}
  }

  private static Method method(Class<?> type, String name) throws NoSuchMethodException {
    return type.getMethod(name);
  }

  @Test
  void eachMethodIsAnEndpointAndItsAnnotationsWinOverItsClasss() throws Exception {
    HandlerRoutes handlers = HandlerRoutes.builder("test");
    assertThat(handlers.handler("GET", List.of("/items"), Shop.class, method(Shop.class, "list")))
        .isEqualTo("Shop#list");
    handlers.handler("POST", List.of("/orders"), Shop.class, method(Shop.class, "order"));
    handlers.handler("GET", List.of("/report"), Shop.class, method(Shop.class, "report"));
    FrameworkRoutes routes = handlers.build();

    assertThat(routes.endpointOf("GET", "/items")).isEqualTo("Shop#list");
    assertThat(routes.endpointOf("POST", "/orders")).isEqualTo("Shop#order");
    assertThat(routes.endpointOf("GET", "/report")).isEqualTo("reports");
    assertThat(routes.annotations().values())
        .containsEntry("endpoints.Shop#list.target", "2s")
        .containsEntry("endpoints.Shop#list.class", "browse")
        .containsEntry("endpoints.Shop#order.target", "300ms")
        .containsEntry("endpoints.Shop#order.class", "buy")
        .containsEntry("classes.buy.rank", "7")
        .containsEntry("classes.buy.kind", "transaction")
        .containsEntry("classes.browse.rank", "1")
        .containsEntry("endpoints.reports.target", "2s")
        .containsEntry("degrade.endpoints.reports.minQuality", "0.3");
    assertThat(routes.annotations().origin("endpoints.Shop#order.target"))
        .contains("@ResponseTimeTarget on")
        .contains("Shop#order");
  }

  @Test
  void methodsSharingAnEndpointMustAgree() throws Exception {
    HandlerRoutes handlers = HandlerRoutes.builder("test");
    handlers.handler("GET", List.of("/a"), Shared.class, method(Shared.class, "a"));
    assertThatThrownBy(
            () -> handlers.handler("GET", List.of("/b"), Shared.class, method(Shared.class, "b")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoints.shared.target")
        .hasMessageContaining("'1s'");
  }
}
