package org.overloadcontrol.it.experiments;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;

/**
 * Serves a file of a fixed size (init-param {@code sizeBytes}, default 10 000) with its length
 * declared: the static file of Li &amp; Jamin's §VI experiment.
 */
public class FixedSizeServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private byte[] body;

  @Override
  public void init() {
    String v = getInitParameter("sizeBytes");
    body = new byte[v == null ? 10_000 : Integer.parseInt(v)];
    Arrays.fill(body, (byte) 'x');
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setContentType("application/octet-stream");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }
}
