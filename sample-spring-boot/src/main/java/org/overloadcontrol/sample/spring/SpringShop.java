package org.overloadcontrol.sample.spring;

import org.overloadcontrol.sample.Shop;
import org.overloadcontrol.sample.ShopSettings;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The sample shop in its Spring Boot form: the pages of the WAR ({@code sample-webapp}) as
 * Spring MVC handler methods ({@link ShopController}) behind one {@code DispatcherServlet},
 * under {@code overload-spring-boot-starter}. The same annotations on the pages, the same
 * overload settings (under {@code overload:} in {@code application.yaml}, the keys of the WAR's
 * {@code WEB-INF/overload.yaml}), the same shop settings ({@code shop.timeScale},
 * {@code shop.dbConnections}, {@code shop.dbWait}) and the same status servlet and dashboard
 * under {@code /overload/} (the starter maps it where the WAR's web.xml does): what differs from
 * the WAR is only how requests reach the pages.
 */
@SpringBootApplication
public class SpringShop {

  /** Starts the shop; Spring Boot's arguments ({@code --server.port=9090}) apply. */
  public static void main(String[] args) {
    SpringApplication.run(SpringShop.class, args);
  }

  /** The shop's settings from the Spring environment; a system property wins, as in the WAR. */
  @Bean
  Shop shop(Environment environment) {
    return Shop.start(ShopSettings.read(environment::getProperty, System::getProperty));
  }
}
