package org.overloadcontrol.sample;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the shop's servlets against Mockito stand-ins for the servlet API (the foreign boundary):
 * one shop whose database records instead of sleeping, and one browser session whose cookie is
 * "sent" once a servlet has created it.
 */
final class ServletHarness {

  /** One answered request. */
  record Answer(int status, Map<String, String> headers, byte[] body) {

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The {@code shop-page} meta value, or null. */
    String shopPage() {
      Matcher m = Pattern.compile("<meta name=\"shop-page\" content=\"([^\"]+)\">").matcher(text());
      return m.find() ? m.group(1) : null;
    }
  }

  final List<Duration> databaseWork = new ArrayList<>();
  final Shop shop;
  private final ServletContext context = mock(ServletContext.class);
  private final Map<String, Object> sessionAttributes = new HashMap<>();
  private HttpSession session;

  /** What overload control tells the servlets about each request; null: no filter ran. */
  org.overloadcontrol.OverloadContext overloadContext;

  ServletHarness() {
    this(null);
  }

  /** With {@code database} as the shop's pool, or one that records instead of sleeping. */
  ServletHarness(Database database) {
    Catalogue catalogue = Catalogue.standard();
    shop =
        new Shop(
            new ShopSettings(0.5, 2, Duration.ZERO),
            catalogue,
            database != null ? database : new Database(2, Duration.ZERO, databaseWork::add),
            ProductImages.draw(catalogue.products().subList(0, 3), catalogue.categories()));
    when(context.getAttribute(Shop.ATTRIBUTE)).thenReturn(shop);
  }

  boolean hasSession() {
    return session != null;
  }

  Answer get(ShopServlet servlet, String pathInfo, String... params) throws Exception {
    return call(servlet, "GET", pathInfo, params);
  }

  Answer post(ShopServlet servlet, String... params) throws Exception {
    return call(servlet, "POST", null, params);
  }

  private Answer call(ShopServlet servlet, String method, String pathInfo, String... params)
      throws Exception {
    ServletConfig config = mock(ServletConfig.class);
    when(config.getServletContext()).thenReturn(context);
    servlet.init(config);

    HttpServletRequest request = mock(HttpServletRequest.class);
    when(request.getMethod()).thenReturn(method);
    when(request.getContextPath()).thenReturn("/shop");
    when(request.getPathInfo()).thenReturn(pathInfo);
    when(request.getProtocol()).thenReturn("HTTP/1.1");
    for (int i = 0; i + 1 < params.length; i += 2) {
      when(request.getParameter(params[i])).thenReturn(params[i + 1]);
    }
    when(request.getAttribute(org.overloadcontrol.OverloadContext.ATTRIBUTE))
        .thenAnswer(call -> overloadContext);
    when(request.getSession()).thenAnswer(call -> session(true));
    when(request.getSession(anyBoolean())).thenAnswer(call -> session(call.getArgument(0)));

    HttpServletResponse response = mock(HttpServletResponse.class);
    int[] status = {200};
    Map<String, String> headers = new HashMap<>();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    doAnswer(call -> status[0] = call.getArgument(0)).when(response).setStatus(anyInt());
    doAnswer(call -> status[0] = call.getArgument(0)).when(response).sendError(anyInt());
    doAnswer(call -> headers.put(call.getArgument(0), call.getArgument(1)))
        .when(response)
        .setHeader(anyString(), anyString());
    doAnswer(call -> headers.put("Content-Type", call.getArgument(0)))
        .when(response)
        .setContentType(anyString());
    doAnswer(call -> headers.put("Content-Length", String.valueOf((int) call.getArgument(0))))
        .when(response)
        .setContentLength(anyInt());
    when(response.getOutputStream())
        .thenReturn(
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
            });
    servlet.service(request, response);
    return new Answer(status[0], headers, body.toByteArray());
  }

  private HttpSession session(boolean create) {
    if (session == null && create) {
      session = mock(HttpSession.class);
      when(session.getAttribute(anyString()))
          .thenAnswer(call -> sessionAttributes.get(call.<String>getArgument(0)));
      doAnswer(call -> sessionAttributes.put(call.getArgument(0), call.getArgument(1)))
          .when(session)
          .setAttribute(anyString(), any());
    }
    return session;
  }
}
