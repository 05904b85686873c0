package org.overloadcontrol.servlet;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.engine.FakeTicker;

/** Mockito-backed servlet objects for filter tests: a context, requests and responses. */
final class FilterHarness {

  final FakeTicker ticker = new FakeTicker();
  final Map<String, Class<?>> servlets = new LinkedHashMap<>();
  final Map<String, String> initParams = new LinkedHashMap<>();
  final Map<String, Object> contextAttributes = new HashMap<>();
  String yaml;

  /** The wall clock X-Request-Start values are compared with: fixed, as the ticker is fake. */
  final java.time.Clock wallClock =
      java.time.Clock.fixed(
          java.time.Instant.ofEpochSecond(1_700_000_000L), java.time.ZoneOffset.UTC);

  OverloadFilter start() throws Exception {
    OverloadFilter filter = new OverloadFilter(ticker, wallClock, AdmissionListener.NONE, null);
    filter.init(filterConfig());
    return filter;
  }

  FilterConfig filterConfig() {
    ServletContext context = mock(ServletContext.class);
    Map<String, ServletRegistration> registrations = new LinkedHashMap<>();
    // The servlet the harness's requests are mapped to, unless a test declares its own.
    Map<String, Class<?>> declared = new LinkedHashMap<>(servlets);
    declared.putIfAbsent("s", jakarta.servlet.http.HttpServlet.class);
    declared.forEach(
        (name, type) -> {
          ServletRegistration r = mock(ServletRegistration.class);
          when(r.getClassName()).thenReturn(type.getName());
          registrations.put(name, r);
        });
    doAnswer(i -> registrations).when(context).getServletRegistrations();
    lenient().when(context.getClassLoader()).thenReturn(getClass().getClassLoader());
    lenient()
        .when(context.getResourceAsStream(anyString()))
        .thenAnswer(
            i ->
                yaml != null && i.getArgument(0).equals("/WEB-INF/overload.yaml")
                    ? new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))
                    : null);
    lenient()
        .when(context.getAttribute(anyString()))
        .thenAnswer(i -> contextAttributes.get((String) i.getArgument(0)));
    lenient()
        .doAnswer(i -> contextAttributes.put(i.getArgument(0), i.getArgument(1)))
        .when(context)
        .setAttribute(anyString(), any());
    lenient()
        .doAnswer(i -> contextAttributes.remove((String) i.getArgument(0)))
        .when(context)
        .removeAttribute(anyString());
    FilterConfig fc = mock(FilterConfig.class);
    lenient().when(fc.getServletContext()).thenReturn(context);
    lenient().when(fc.getFilterName()).thenReturn("overload");
    lenient()
        .when(fc.getInitParameterNames())
        .thenAnswer(i -> Collections.enumeration(initParams.keySet()));
    lenient()
        .when(fc.getInitParameter(anyString()))
        .thenAnswer(i -> initParams.get((String) i.getArgument(0)));
    return fc;
  }

  /** A request builder. */
  static final class Req {
    final Map<String, String> headers = new HashMap<>();
    final Map<String, Object> attributes = new HashMap<>();
    String servletName = "s";
    String servletPath = "/s";
    String method = "GET";
    String remote = "127.0.0.1";
    String pathInfo;
    Cookie[] cookies;
    boolean asyncStarted;

    Req servlet(String name, String path) {
      servletName = name;
      servletPath = path;
      return this;
    }

    Req header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    HttpServletRequest build() {
      HttpServletRequest r = mock(HttpServletRequest.class);
      lenient().when(r.getDispatcherType()).thenReturn(DispatcherType.REQUEST);
      lenient().when(r.getMethod()).thenReturn(method);
      lenient().when(r.getServletPath()).thenReturn(servletPath);
      lenient().when(r.getRequestURI()).thenReturn(servletPath);
      lenient().when(r.getRemoteAddr()).thenReturn(remote);
      lenient().when(r.getPathInfo()).thenReturn(pathInfo);
      lenient().when(r.getCookies()).thenReturn(cookies);
      lenient().when(r.getHeader(anyString())).thenAnswer(i -> headers.get(i.getArgument(0)));
      lenient()
          .when(r.getHeaders(anyString()))
          .thenAnswer(
              i -> {
                String v = headers.get(i.getArgument(0));
                return Collections.enumeration(v == null ? List.of() : List.of(v));
              });
      HttpServletMapping mapping = mock(HttpServletMapping.class);
      lenient().when(mapping.getServletName()).thenReturn(servletName);
      lenient().when(r.getHttpServletMapping()).thenReturn(mapping);
      lenient()
          .when(r.getAttribute(anyString()))
          .thenAnswer(i -> attributes.get((String) i.getArgument(0)));
      lenient()
          .doAnswer(i -> attributes.put(i.getArgument(0), i.getArgument(1)))
          .when(r)
          .setAttribute(anyString(), any());
      lenient()
          .doAnswer(i -> attributes.remove((String) i.getArgument(0)))
          .when(r)
          .removeAttribute(anyString());
      lenient().when(r.isAsyncStarted()).thenAnswer(i -> asyncStarted);
      return r;
    }
  }

  /** A response that records what was sent. */
  static final class Res {
    final HttpServletResponse mock = mock(HttpServletResponse.class);
    final Map<String, String> headers = new HashMap<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    int status = 200;
    String contentType;
    boolean committed;

    Res() throws Exception {
      lenient().doAnswer(i -> status = i.getArgument(0)).when(mock).setStatus(anyInt());
      lenient()
          .doAnswer(i -> headers.put(i.getArgument(0), i.getArgument(1)))
          .when(mock)
          .setHeader(anyString(), anyString());
      // On a reset response, as an answer is written, adding a header sets it.
      lenient()
          .doAnswer(i -> headers.put(i.getArgument(0), i.getArgument(1)))
          .when(mock)
          .addHeader(anyString(), anyString());
      lenient()
          .doAnswer(i -> contentType = i.getArgument(0))
          .when(mock)
          .setContentType(anyString());
      lenient().when(mock.isCommitted()).thenAnswer(i -> committed);
      lenient().doAnswer(i -> committed = true).when(mock).flushBuffer();
      ServletOutputStream out =
          new ServletOutputStream() {
            @Override
            public void write(int b) {
              body.write(b);
            }

            @Override
            public boolean isReady() {
              return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {}
          };
      lenient().when(mock.getOutputStream()).thenReturn(out);
      java.io.PrintWriter writer =
          new java.io.PrintWriter(
              new java.io.OutputStreamWriter(body, StandardCharsets.UTF_8), true);
      lenient().when(mock.getWriter()).thenReturn(writer);
      lenient().doAnswer(i -> status = i.getArgument(0)).when(mock).sendError(anyInt());
      lenient()
          .doAnswer(i -> headers.put("Location", i.getArgument(0)))
          .when(mock)
          .sendRedirect(anyString());
    }

    String bodyText() {
      try {
        mock.getWriter().flush();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return body.toString(StandardCharsets.UTF_8);
    }
  }
}
