package org.overloadcontrol.it.support;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.servlet.Overload;

/**
 * Prints what {@link Overload#context} says about the request, one {@code key=value} a line:
 * endpoint, class, target in milliseconds (or {@code none}). Subclasses carry the annotations
 * whose effect the tests read back.
 */
public class ContextEchoServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setContentType("text/plain;charset=UTF-8");
    PrintWriter out = resp.getWriter();
    Optional<OverloadContext> context = Overload.context(req);
    if (context.isEmpty()) {
      out.println("context=none");
      return;
    }
    OverloadContext c = context.get();
    out.println("endpoint=" + c.endpoint());
    out.println("class=" + c.requestClass());
    out.println("target=" + c.target().map(d -> Long.toString(d.toMillis())).orElse("none"));
  }

  /** A transaction page with its own class and target. */
  @RequestClass(value = "checkout", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
  @ResponseTimeTarget("300ms")
  public static class Checkout extends ContextEchoServlet {
    private static final long serialVersionUID = 1L;
  }

  /** A browsing page whose endpoint is renamed. */
  @Endpoint("catalogue")
  @RequestClass(value = "browse", rank = 2, utility = 22)
  @ResponseTimeTarget("1.5s")
  public static class Browse extends ContextEchoServlet {
    private static final long serialVersionUID = 1L;
  }

  /** No annotations: the default class, measured but not controlled. */
  public static class Plain extends ContextEchoServlet {
    private static final long serialVersionUID = 1L;
  }
}
