package org.overloadcontrol.it.support;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Answers with the request thread's {@code toString()}: a virtual thread's starts with {@code
 * VirtualThread[}, which shows a test where its request ran without Java 21 APIs.
 */
public class ThreadNameServlet extends HttpServlet {

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setContentType("text/plain");
    resp.getWriter().write(Thread.currentThread().toString());
  }
}
