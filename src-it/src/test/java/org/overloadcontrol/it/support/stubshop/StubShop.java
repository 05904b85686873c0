package org.overloadcontrol.it.support.stubshop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.it.support.ExplodedWebApp;

/**
 * A stand-in for the sample shop: the URL contract of the shop (pages, session steps, 409 on a
 * skipped step, annotations) with no service times and no styling. It exists only to check the
 * shop tests themselves while the real WAR is built elsewhere; {@code SampleShopIT} runs the
 * same walk against the real WAR.
 */
public final class StubShop {

  private StubShop() {}

  /** The stub as an exploded web application with the filter. */
  public static ExplodedWebApp webApp() {
    return new ExplodedWebApp()
        .withOverloadFilter(Map.of())
        .withServlet("home", Home.class, Map.of(), "")
        .withServlet("browse", Browse.class, Map.of(), "/browse")
        .withServlet("search", Search.class, Map.of(), "/search")
        .withServlet("details", Details.class, Map.of(), "/product")
        .withServlet("login", Login.class, Map.of(), "/login")
        .withServlet("shipping", Shipping.class, Map.of(), "/shipping")
        .withServlet("payment", Payment.class, Map.of(), "/payment")
        .withServlet("confirm", Confirm.class, Map.of(), "/confirm")
        .withServlet("cart", Cart.class, Map.of(), "/cart")
        .withServlet("images", Images.class, Map.of(), "/images/*");
  }

  /** Renders a page with the contract's {@code shop-page} marker. */
  abstract static class Page extends HttpServlet {
    private static final long serialVersionUID = 1L;

    void page(HttpServletRequest req, HttpServletResponse resp, String name, String body)
        throws IOException {
      resp.setContentType("text/html;charset=UTF-8");
      String ctx = req.getContextPath();
      resp.getWriter()
          .write(
              "<!DOCTYPE html><html><head><meta name=\"shop-page\" content=\""
                  + name
                  + "\"><title>"
                  + name
                  + "</title></head><body>"
                  + "<a href=\""
                  + ctx
                  + "/browse?category=books\">books</a> "
                  + "<a href=\""
                  + ctx
                  + "/product?id=3\">product 3</a>"
                  + body
                  + "</body></html>");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      page(req, resp, getServletName(), "");
    }

    /** A step of the purchase: records it in the session and answers with the next form. */
    void step(
        HttpServletRequest req,
        HttpServletResponse resp,
        String attribute,
        String value,
        String next)
        throws IOException {
      req.getSession().setAttribute(attribute, value);
      resp.setStatus(HttpServletResponse.SC_SEE_OTHER);
      resp.setHeader("Location", req.getContextPath() + "/" + next);
    }
  }

  @RequestClass(value = "home", rank = 1, kind = RequestKind.BROWSING, utility = 27)
  public static class Home extends Page {
    private static final long serialVersionUID = 1L;
  }

  @RequestClass(value = "browse", rank = 2, kind = RequestKind.BROWSING, utility = 22)
  public static class Browse extends Page {
    private static final long serialVersionUID = 1L;
  }

  @RequestClass(value = "search", rank = 3, kind = RequestKind.BROWSING, utility = 36)
  public static class Search extends Page {
    private static final long serialVersionUID = 1L;
  }

  @RequestClass(value = "details", rank = 4, kind = RequestKind.BROWSING, utility = 73)
  public static class Details extends Page {
    private static final long serialVersionUID = 1L;
  }

  @RequestClass(value = "login", rank = 5, kind = RequestKind.TRANSACTION, utility = 3650)
  public static class Login extends Page {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      step(req, resp, "user", req.getParameter("user"), "shipping");
    }
  }

  @RequestClass(value = "shipping", rank = 6, kind = RequestKind.TRANSACTION, utility = 4050)
  public static class Shipping extends Page {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      step(req, resp, "address", req.getParameter("address"), "payment");
    }
  }

  @RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
  public static class Payment extends Page {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      req.getSession().setAttribute("card", req.getParameter("card"));
      page(
          req,
          resp,
          "payment",
          "<form method=\"post\" action=\"confirm\">" + "<button>confirm</button></form>");
    }
  }

  @RequestClass(value = "confirm", rank = 8, kind = RequestKind.TRANSACTION, utility = 5000)
  public static class Confirm extends Page {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      HttpSession s = req.getSession();
      AtomicInteger cart = (AtomicInteger) s.getAttribute("cart");
      if (cart == null
          || cart.get() == 0
          || s.getAttribute("user") == null
          || s.getAttribute("address") == null
          || s.getAttribute("card") == null) {
        resp.setStatus(HttpServletResponse.SC_CONFLICT);
        page(req, resp, "confirm", "<p>An earlier step is missing.</p>");
        return;
      }
      s.removeAttribute("cart");
      page(req, resp, "confirm", "<span id=\"order-id\">" + UUID.randomUUID() + "</span>");
    }
  }

  @RequestClass(value = "cart", rank = 4, kind = RequestKind.TRANSACTION, utility = 3000)
  public static class Cart extends Page {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      HttpSession s = req.getSession();
      synchronized (s) {
        AtomicInteger cart = (AtomicInteger) s.getAttribute("cart");
        if (cart == null) {
          s.setAttribute("cart", cart = new AtomicInteger());
        }
        cart.incrementAndGet();
      }
      page(req, resp, "cart", "");
    }
  }

  @RequestClass(value = "images", rank = 0, kind = RequestKind.BROWSING, utility = 1)
  public static class Images extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      byte[] jpeg = new byte[10 * 1024];
      jpeg[0] = (byte) 0xFF;
      jpeg[1] = (byte) 0xD8;
      resp.setContentType("image/jpeg");
      resp.setContentLength(jpeg.length);
      resp.getOutputStream().write(jpeg);
    }
  }
}
