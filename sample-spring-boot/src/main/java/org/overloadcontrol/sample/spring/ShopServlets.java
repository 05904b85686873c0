package org.overloadcontrol.sample.spring;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
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
import org.overloadcontrol.sample.Shop;
import org.springframework.stereotype.Component;

/**
 * The WAR's page servlets, each created once and initialised against the Spring application's
 * servlet context with the running {@link Shop}, so that a handler method renders exactly the
 * page the WAR renders (the page code is the WAR's, not a copy).
 */
@Component
class ShopServlets {

  private final Map<Class<?>, HttpServlet> byType;

  ShopServlets(ServletContext context, Shop shop) throws ServletException {
    context.setAttribute(Shop.ATTRIBUTE, shop);
    List<HttpServlet> pages =
        List.of(
            new HomeServlet(),
            new BrowseServlet(),
            new SearchServlet(),
            new DetailsServlet(),
            new LoginServlet(),
            new ShippingServlet(),
            new PaymentServlet(),
            new ConfirmServlet(),
            new CartServlet(),
            new ImageServlet());
    for (HttpServlet page : pages) {
      page.init(config(context, page));
    }
    byType =
        pages.stream().collect(Collectors.toUnmodifiableMap(Object::getClass, Function.identity()));
  }

  /** Serves the request with the page servlet of {@code type}. */
  void serve(
      Class<? extends HttpServlet> type, HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    byType.get(type).service(request, response);
  }

  private static ServletConfig config(ServletContext context, HttpServlet page) {
    return new ServletConfig() {
      @Override
      public String getServletName() {
        return page.getClass().getSimpleName();
      }

      @Override
      public ServletContext getServletContext() {
        return context;
      }

      @Override
      public String getInitParameter(String name) {
        return null;
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.emptyEnumeration();
      }
    };
  }
}
