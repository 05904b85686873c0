package org.overloadcontrol.sample.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.yaml.snakeyaml.Yaml;

/**
 * The Spring form is the same shop as the WAR: each handler method carries exactly the
 * overload annotations of the servlet it serves, under the WAR's servlet name, and
 * {@code application.yaml}'s {@code overload:} section is the WAR's {@code overload.yaml}.
 */
class SameShopTest {

  private static final List<Class<? extends Annotation>> OVERLOAD_ANNOTATIONS =
      List.of(RequestClass.class, ResponseTimeTarget.class, Degradable.class);

  @Test
  void eachHandlerMethodCarriesItsServletsAnnotations() throws Exception {
    List<String> checked = new ArrayList<>();
    for (Method m : ShopController.class.getDeclaredMethods()) {
      Endpoint endpoint = m.getAnnotation(Endpoint.class);
      if (endpoint == null) {
        continue;
      }
      Class<?> servlet = servletServing(m);
      for (Class<? extends Annotation> a : OVERLOAD_ANNOTATIONS) {
        assertThat(m.getAnnotation(a))
            .as("%s of %s, as on %s", a.getSimpleName(), m.getName(), servlet.getSimpleName())
            .isEqualTo(servlet.getAnnotation(a));
      }
      assertThat(endpoint.value())
          .as("the endpoint of %s", m.getName())
          .isEqualTo(m.getAnnotation(RequestClass.class).value());
      checked.add(servlet.getSimpleName());
    }
    assertThat(checked).hasSize(10);
  }

  /** The servlet a handler method serves: the one named after its endpoint's page. */
  private static Class<?> servletServing(Method m) throws ClassNotFoundException {
    String page = m.getName().equals("details") ? "Details" : capitalised(m.getName());
    String name = m.getName().equals("images") ? "Image" : page;
    return Class.forName("org.overloadcontrol.sample." + name + "Servlet");
  }

  private static String capitalised(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  @Test
  @SuppressWarnings("unchecked")
  void applicationYamlHoldsTheWarsOverloadSettings() throws Exception {
    Map<String, Object> war;
    try (InputStream in =
        Files.newInputStream(Path.of("../sample-webapp/src/main/webapp/WEB-INF/overload.yaml"))) {
      war = new Yaml().load(in);
    }
    Map<String, Object> spring;
    try (InputStream in = SameShopTest.class.getResourceAsStream("/application.yaml")) {
      spring = new Yaml().load(in);
    }
    assertThat((Map<String, Object>) spring.get("overload")).isEqualTo(war);
  }
}
