package org.overloadcontrol.sample.spring;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.sample.BrowseServlet;
import org.overloadcontrol.sample.CartServlet;
import org.overloadcontrol.sample.ConfirmServlet;
import org.overloadcontrol.sample.DetailsServlet;
import org.overloadcontrol.sample.HomeServlet;
import org.overloadcontrol.sample.ImageServlet;
import org.overloadcontrol.sample.LoginServlet;
import org.overloadcontrol.sample.PaymentServlet;
import org.overloadcontrol.sample.SearchServlet;
import org.overloadcontrol.sample.ShippingServlet;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;

/**
 * The shop's pages as Spring MVC handler methods: each method is one endpoint, named as the
 * WAR names its servlet ({@code @Endpoint}), with the request class, response-time target and
 * degradation the WAR's servlet carries (LIFO-Pri Table 3 ranks and utilities, 2 s for
 * browsing pages, 1.5 s for the checkout; a test keeps the two equal). The starter reads these
 * annotations once when the application starts; the page itself is the WAR's servlet.
 */
@Controller
class ShopController {

  private static final String IMAGES = "/images";

  private final ShopServlets pages;

  ShopController(ShopServlets pages) {
    this.pages = pages;
  }

  @GetMapping("/")
  @Endpoint("home")
  @RequestClass(value = "home", rank = 1, kind = RequestKind.BROWSING, utility = 27)
  @ResponseTimeTarget("2s")
  void home(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(HomeServlet.class, request, response);
  }

  @GetMapping("/browse")
  @Endpoint("browse")
  @RequestClass(value = "browse", rank = 2, kind = RequestKind.BROWSING, utility = 22)
  @ResponseTimeTarget("2s")
  void browse(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(BrowseServlet.class, request, response);
  }

  @GetMapping("/search")
  @Endpoint("search")
  @Degradable(minQuality = 0.2)
  @RequestClass(value = "search", rank = 3, kind = RequestKind.BROWSING, utility = 36)
  @ResponseTimeTarget("2s")
  void search(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(SearchServlet.class, request, response);
  }

  @GetMapping("/product")
  @Endpoint("details")
  @RequestClass(value = "details", rank = 4, kind = RequestKind.BROWSING, utility = 73)
  @ResponseTimeTarget("2s")
  void details(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(DetailsServlet.class, request, response);
  }

  @RequestMapping(
      path = "/login",
      method = {RequestMethod.GET, RequestMethod.POST})
  @Endpoint("login")
  @RequestClass(value = "login", rank = 5, kind = RequestKind.TRANSACTION, utility = 3650)
  @ResponseTimeTarget("1.5s")
  void login(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(LoginServlet.class, request, response);
  }

  @RequestMapping(
      path = "/shipping",
      method = {RequestMethod.GET, RequestMethod.POST})
  @Endpoint("shipping")
  @RequestClass(value = "shipping", rank = 6, kind = RequestKind.TRANSACTION, utility = 4050)
  @ResponseTimeTarget("1.5s")
  void shipping(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(ShippingServlet.class, request, response);
  }

  @RequestMapping(
      path = "/payment",
      method = {RequestMethod.GET, RequestMethod.POST})
  @Endpoint("payment")
  @RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
  @ResponseTimeTarget("1.5s")
  void payment(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(PaymentServlet.class, request, response);
  }

  @PostMapping("/confirm")
  @Endpoint("confirm")
  @RequestClass(value = "confirm", rank = 8, kind = RequestKind.TRANSACTION, utility = 5000)
  @ResponseTimeTarget("1.5s")
  void confirm(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(ConfirmServlet.class, request, response);
  }

  @RequestMapping(
      path = "/cart",
      method = {RequestMethod.GET, RequestMethod.POST})
  @Endpoint("cart")
  @RequestClass(value = "cart", rank = 4, kind = RequestKind.TRANSACTION, utility = 3000)
  void cart(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    pages.serve(CartServlet.class, request, response);
  }

  @GetMapping(IMAGES + "/**")
  @Endpoint("images")
  @RequestClass(value = "images", rank = 0, kind = RequestKind.BROWSING, utility = 1)
  void images(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    // The image servlet reads the picture's name from the path below its mapping, as the
    // WAR maps it at /images/*; behind the DispatcherServlet all of the path is its own.
    pages.serve(
        ImageServlet.class,
        new HttpServletRequestWrapper(request) {
          @Override
          public String getServletPath() {
            return IMAGES;
          }

          @Override
          public String getPathInfo() {
            String path = request.getServletPath() + nullToEmpty(request.getPathInfo());
            return path.startsWith(IMAGES + "/") ? path.substring(IMAGES.length()) : null;
          }
        },
        response);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
