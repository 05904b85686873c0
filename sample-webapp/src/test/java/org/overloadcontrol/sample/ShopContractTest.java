package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.io.FileInputStream;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.admission.ClassSettings;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.servlet.FilterEngine;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Checks web.xml, the annotations and overload.yaml against the URL contract shared with the
 * integration tests (servlet names, paths, classes of LIFO-Pri Table 3, Table 2 times,
 * targets), and that the real {@link OverloadFilter}, started on the shop's registrations and
 * YAML file, classifies each page as the contract says.
 */
class ShopContractTest {

  private record Row(
      String servlet,
      Class<?> type,
      String path,
      int rank,
      RequestKind kind,
      double utility,
      long serviceMillis,
      Duration target) {}

  private static final Duration BROWSING = Duration.ofSeconds(2);
  private static final Duration TRANSACTION = Duration.ofMillis(1500);
  private static final RequestKind B = RequestKind.BROWSING;
  private static final RequestKind T = RequestKind.TRANSACTION;

  private static final List<Row> CONTRACT =
      List.of(
          new Row("home", HomeServlet.class, "", 1, B, 27, 200, BROWSING),
          new Row("browse", BrowseServlet.class, "/browse", 2, B, 22, 300, BROWSING),
          new Row("search", SearchServlet.class, "/search", 3, B, 36, 300, BROWSING),
          new Row("details", DetailsServlet.class, "/product", 4, B, 73, 222, BROWSING),
          new Row("login", LoginServlet.class, "/login", 5, T, 3650, 280, TRANSACTION),
          new Row("shipping", ShippingServlet.class, "/shipping", 6, T, 4050, 420, TRANSACTION),
          new Row("payment", PaymentServlet.class, "/payment", 7, T, 4500, 500, TRANSACTION),
          new Row("confirm", ConfirmServlet.class, "/confirm", 8, T, 5000, 300, TRANSACTION),
          new Row("cart", CartServlet.class, "/cart", 4, T, 3000, 0, null),
          new Row("images", ImageServlet.class, "/images/*", 0, B, 1, 0, null));

  private static WebXml webXml;
  private static OverloadEngine engine;

  @BeforeAll
  static void startFilterOnTheShopsRegistrations() throws Exception {
    webXml = new WebXml();
    ServletContext context = mock(ServletContext.class);
    Map<String, ServletRegistration> registrations = new LinkedHashMap<>();
    webXml.servletClasses.forEach(
        (name, className) -> {
          ServletRegistration r = mock(ServletRegistration.class);
          when(r.getClassName()).thenReturn(className);
          registrations.put(name, r);
        });
    doReturn(registrations).when(context).getServletRegistrations();
    when(context.getClassLoader()).thenReturn(ShopContractTest.class.getClassLoader());
    when(context.getResourceAsStream(anyString()))
        .thenAnswer(
            call -> {
              var file = WebXml.WEBAPP.resolve(call.<String>getArgument(0).substring(1)).toFile();
              return file.isFile() ? new FileInputStream(file) : null;
            });
    FilterConfig config = mock(FilterConfig.class);
    when(config.getServletContext()).thenReturn(context);
    when(config.getFilterName()).thenReturn("overload");
    when(config.getInitParameterNames()).thenReturn(Collections.emptyEnumeration());
    OverloadFilter filter = new OverloadFilter();
    filter.init(config);
    engine = FilterEngine.of(filter);
  }

  @Test
  void webXmlDeclaresEachContractServletAtItsPath() {
    // The contract's servlets, then the library's status servlet (docs/observability.md).
    List<String> names = new java.util.ArrayList<>(CONTRACT.stream().map(Row::servlet).toList());
    names.add("overload-status");
    assertThat(webXml.servletClasses.keySet()).containsExactlyElementsOf(names);
    assertThat(webXml.servletClasses.get("overload-status"))
        .isEqualTo(org.overloadcontrol.servlet.OverloadStatusServlet.class.getName());
    assertThat(webXml.mappings.get("overload-status")).containsExactly("/overload/*");
    for (Row row : CONTRACT) {
      assertThat(webXml.servletClasses.get(row.servlet())).isEqualTo(row.type().getName());
      assertThat(webXml.mappings.get(row.servlet())).containsExactly(row.path());
      // The wait queues will suspend requests, which needs async support along the chain.
      assertThat(webXml.servletAsync.get(row.servlet())).as(row.servlet()).isTrue();
    }
    assertThat(webXml.filterClasses).containsEntry("overload", OverloadFilter.class.getName());
    assertThat(webXml.listeners).containsExactly(ShopListener.class.getName());
    assertThat(webXml.metadataComplete).isTrue();
  }

  @Test
  void webXmlSetsTheDocumentedDefaults() {
    assertThat(webXml.contextParams)
        .containsExactly(
            Map.entry("shop.timeScale", "1.0"),
            Map.entry("shop.dbConnections", "4"),
            Map.entry("shop.dbWait", "30s"));
    assertThat(ShopSettings.read(webXml.contextParams::get, k -> null))
        .isEqualTo(ShopSettings.defaults());
  }

  @Test
  void eachServletServesThePageOfItsNameWithTheTable2ServiceTime() throws Exception {
    for (Row row : CONTRACT) {
      ShopServlet servlet = (ShopServlet) row.type().getDeclaredConstructor().newInstance();
      assertThat(servlet.page().pageName()).isEqualTo(row.servlet());
      assertThat(servlet.page().serviceTime()).isEqualTo(Duration.ofMillis(row.serviceMillis()));
    }
  }

  @Test
  void annotationsCarryTable3ClassesAndTheTargets() {
    for (Row row : CONTRACT) {
      org.overloadcontrol.annotation.RequestClass rc =
          row.type().getAnnotation(org.overloadcontrol.annotation.RequestClass.class);
      assertThat(rc.value()).isEqualTo(row.servlet());
      assertThat(rc.rank()).isEqualTo(row.rank());
      assertThat(rc.kind()).isEqualTo(row.kind());
      assertThat(rc.utility()).isEqualTo(row.utility());
      ResponseTimeTarget target = row.type().getAnnotation(ResponseTimeTarget.class);
      if (row.target() == null) {
        assertThat(target).as(row.servlet()).isNull();
      } else {
        assertThat(org.overloadcontrol.internal.config.Durations.parse(target.value()))
            .isEqualTo(row.target());
      }
    }
  }

  @Test
  void theFilterClassifiesEachPageAsItsAnnotationsSay() {
    for (Row row : CONTRACT) {
      ClassDefinition c = engine.routes().route(row.servlet(), attributes(row)).requestClass();
      assertThat(c)
          .isEqualTo(new ClassDefinition(row.servlet(), row.rank(), row.kind(), row.utility()));
      ClassSettings settings = engine.config().settingsFor(row.servlet(), c);
      assertThat(settings.targetNanos())
          .isEqualTo(row.target() == null ? 0L : row.target().toNanos());
    }
  }

  @Test
  void overloadYamlStartsEachControllerAtTheShopsRate() {
    ClassDefinition search = engine.config().requestClass("search").orElseThrow();
    var parameters = engine.config().settingsFor("search", search).parameters();
    assertThat(parameters.initialRate()).isEqualTo(20.0);
    assertThat(parameters.bucketDepth()).isEqualTo(10);
  }

  @Test
  void searchIsTheOneDegradablePage() {
    var search = engine.degradeSettings().endpoint("search");
    assertThat(search).isNotNull();
    assertThat(search.minQuality()).isEqualTo(0.2);
    assertThat(search.targetNanos()).isEqualTo(BROWSING.toNanos());
    assertThat(engine.degradeSettings().endpoints().keySet()).containsExactly("search");
  }

  private static RequestAttributes attributes(Row row) {
    return new RequestAttributes() {
      @Override
      public String method() {
        return "GET";
      }

      @Override
      public String path() {
        return row.path().isEmpty() ? "/" : row.path().replace("*", "1.jpg");
      }

      @Override
      public String header(String name) {
        return null;
      }

      @Override
      public String cookie(String name) {
        return null;
      }

      @Override
      public String clientAddress() {
        return "127.0.0.1";
      }
    };
  }
}
