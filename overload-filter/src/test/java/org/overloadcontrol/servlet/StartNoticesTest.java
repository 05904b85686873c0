package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.pipeline.Settings;

/**
 * The filter's notices at start and on the first request: filters and servlets without async
 * support when wait queues are on, and a handler in front that has taken over. Each goes to
 * {@code ServletContext.log} (the container's log) once.
 */
class StartNoticesTest {

  private static final String WEB_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
        <filter><filter-name>overload</filter-name>
          <filter-class>org.overloadcontrol.servlet.OverloadFilter</filter-class></filter>
        <servlet><servlet-name>legacy</servlet-name>
          <servlet-class>com.example.Legacy</servlet-class></servlet>
        <servlet><servlet-name>overload-status</servlet-name>
          <servlet-class>org.overloadcontrol.servlet.OverloadStatusServlet</servlet-class></servlet>
        <servlet><servlet-name>modern</servlet-name>
          <servlet-class>com.example.Modern</servlet-class>
          <async-supported>true</async-supported></servlet>
      </web-app>
      """;

  /** Declared by annotation only, async. */
  @WebServlet(name = "annotated", asyncSupported = true)
  public static class AnnotatedAsync extends HttpServlet {}

  /** Declared by annotation only, not async. */
  @WebServlet(name = "plain")
  public static class AnnotatedPlain extends HttpServlet {}

  private final ServletContext context = mock(ServletContext.class);

  private void webApp() {
    when(context.getResourceAsStream("/WEB-INF/web.xml"))
        .thenAnswer(i -> new ByteArrayInputStream(WEB_XML.getBytes(StandardCharsets.UTF_8)));
    when(context.getClassLoader()).thenReturn(getClass().getClassLoader());
    FilterRegistration filter = mock(FilterRegistration.class);
    when(filter.getClassName()).thenReturn(OverloadFilter.class.getName());
    doReturn(Map.of("overload", filter)).when(context).getFilterRegistrations();
    doReturn(
            Map.of(
                "legacy",
                servlet("com.example.Legacy"),
                "modern",
                servlet("com.example.Modern"),
                "annotated",
                servlet(AnnotatedAsync.class.getName()),
                "plain",
                servlet(AnnotatedPlain.class.getName()),
                "default",
                servlet("org.apache.catalina.servlets.DefaultServlet"),
                "overload-status",
                servlet(OverloadStatusServlet.class.getName())))
        .when(context)
        .getServletRegistrations();
  }

  private static ServletRegistration servlet(String className) {
    ServletRegistration r = mock(ServletRegistration.class);
    when(r.getClassName()).thenReturn(className);
    return r;
  }

  private static Settings queues(Map<String, String> config) {
    return Settings.of(OverloadConfig.of(config));
  }

  @Test
  void namesTheFiltersAndServletsWithoutAsyncSupport() {
    webApp();
    // Declared in web.xml without <async-supported>, or annotated without asyncSupported; the
    // container's default servlet is declared nowhere the filter can read, and the status
    // servlet's requests never wait: both are left out.
    assertThat(AsyncSupportNotice.lacking(context))
        .containsExactly("filter 'overload'", "servlet 'legacy'", "servlet 'plain'");
  }

  @Test
  void saysItOnceAtStartToTheContainersLogWhenQueuesAreOn() {
    webApp();
    AsyncSupportNotice.atStart(context, queues(Map.of("queue.permits", "4")));
    ArgumentCaptor<String> logged = ArgumentCaptor.forClass(String.class);
    verify(context).log(logged.capture());
    assertThat(logged.getValue())
        .contains(
            "queue.permits is set, but filter 'overload',"
                + " servlet 'legacy', servlet 'plain' are not async-supported")
        .contains("queue.nonAsync: block");

    ServletContext other = mock(ServletContext.class);
    AsyncSupportNotice.atStart(other, queues(Map.of()));
    verify(other, never()).log(anyString());
    assertThat(AsyncSupportNotice.message(java.util.List.of("filter 'f'"), true))
        .contains("filter 'f' is not async-supported")
        .contains("refused with 503");
  }

  @Test
  void aHandlerInFrontIsReportedOnce() {
    TakeoverNotice notice = new TakeoverNotice(context, "overload");
    notice.alreadyControlled();
    notice.alreadyControlled();
    verify(context).log(TakeoverNotice.message("overload"));
    assertThat(TakeoverNotice.message("overload"))
        .contains("filter 'overload' passes every" + " request through")
        .contains("OverloadHandler");
  }

  @Test
  void aConfigurationErrorGoesToTheContainersLog() {
    ContainerLog.error(context, "overload-control configuration: key 'x' = 'y': no");
    verify(context).log("overload-control configuration: key 'x' = 'y': no");
  }
}
