package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusServletsTest {

  /** A status servlet under another name, as an application may extend it. */
  public static class OwnStatusServlet extends OverloadStatusServlet {
    private static final long serialVersionUID = 1L;
  }

  private static ServletContext contextWith(ClassLoader loader) {
    ServletContext context = mock(ServletContext.class);
    when(context.getClassLoader()).thenReturn(loader);
    Map<String, ServletRegistration> registrations =
        Map.of(
            "status", registration(OverloadStatusServlet.class.getName()),
            "own-status", registration(OwnStatusServlet.class.getName()),
            "work", registration("jakarta.servlet.http.HttpServlet"),
            "missing", registration("com.example.NotOnTheClassPath"),
            "by-instance", registration(null));
    doReturn(registrations).when(context).getServletRegistrations();
    return context;
  }

  private static ServletRegistration registration(String className) {
    ServletRegistration r = mock(ServletRegistration.class);
    when(r.getClassName()).thenReturn(className);
    return r;
  }

  @Test
  void statusServletsAreFoundThroughTheContextsClassLoader() {
    assertThat(StatusServlets.names(contextWith(getClass().getClassLoader())))
        .containsExactlyInAnyOrder("status", "own-status");
  }

  /** Issue 33, item 6: an embedded Jetty context without a class loader answers null. */
  @Test
  void statusServletsAreFoundInAContextWithoutAClassLoader() {
    assertThat(StatusServlets.names(contextWith(null)))
        .containsExactlyInAnyOrder("status", "own-status");
  }
}
