package org.overloadcontrol.it.support;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.servlet.Overload;

/**
 * Says in its response headers which servlet the container chose ({@code X-Servlet}), the
 * path the container resolved ({@code X-Path}) and the endpoint overload control gave the
 * request ({@code X-Endpoint}, {@code none} when the request was not controlled).
 */
public class PathEchoServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setHeader("X-Servlet", getServletName());
    String pathInfo = req.getPathInfo();
    resp.setHeader("X-Path", req.getServletPath() + (pathInfo == null ? "" : pathInfo));
    resp.setHeader(
        "X-Endpoint", Overload.context(req).map(OverloadContext::endpoint).orElse("none"));
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().println("ok");
  }
}
