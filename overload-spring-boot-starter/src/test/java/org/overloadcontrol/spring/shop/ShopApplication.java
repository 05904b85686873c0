package org.overloadcontrol.spring.shop;

import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.servlet.Overload;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot application with one controller whose handler methods differ only in their
 * annotations: each answers with the endpoint, class and target the filter gave its request.
 */
@SpringBootApplication
public class ShopApplication {

  @RestController
  @RequestMapping("/shop")
  @RequestClass(value = "browse", rank = 1)
  public static class ShopController {

    @GetMapping("/catalogue")
    public String catalogue(HttpServletRequest request) {
      return describe(request);
    }

    @GetMapping("/search")
    @ResponseTimeTarget("2s")
    public String search(HttpServletRequest request) {
      return describe(request);
    }

    @PostMapping("/orders")
    @ResponseTimeTarget("1ms")
    @RequestClass(value = "order", rank = 5, kind = RequestKind.TRANSACTION)
    public String order(HttpServletRequest request) {
      return describe(request);
    }

    private static String describe(HttpServletRequest request) {
      OverloadContext ctx = Overload.context(request).orElseThrow();
      return ctx.endpoint() + " " + ctx.requestClass() + " " + ctx.target().orElse(null);
    }
  }
}
