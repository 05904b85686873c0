package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletRegistration;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.glassfish.jersey.internal.Version;
import org.glassfish.jersey.servlet.ServletContainer;
import org.jboss.resteasy.plugins.servlet.ResteasyServletInitializer;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Jakarta REST 4.0 (Jakarta EE 11) behind the overload filter in Tomcat 11, over HTTP on
 * 127.0.0.1: RESTEasy 7 and Jersey 4, each with overload-jakarta-rest's resource and checks
 * (its EE 10 tests, {@code ResteasyOnTomcatIT} and {@code JerseyOnJettyIT}).
 */
class RestOnTomcat11IT {

  @Test
  void resteasy7() throws Exception {
    assertThat(ResteasyServletInitializer.class.getPackage().getImplementationVersion())
        .as("the RESTEasy on the class path")
        .startsWith("7.");
    run(new ResteasyServletInitializer(), false);
  }

  @Test
  void jersey4() throws Exception {
    assertThat(Version.getVersion()).as("the Jersey on the class path").startsWith("4.");
    run(null, true);
  }

  /** Tomcat with the filter and one implementation: its initializer, or Jersey's servlet. */
  private static void run(ServletContainerInitializer initializer, boolean jerseyServlet)
      throws Exception {
    assertThat(ServerInfo.getServerNumber()).as("the Tomcat on the class path").startsWith("11.");
    Path dir = Files.createTempDirectory("rest-tomcat11-it");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(dir.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    Context context = tomcat.addContext("", dir.toString());
    Set<Class<?>> scanned = Set.of(ShopResource.class, ShopApplication.class);
    context.addServletContainerInitializer(new OverloadRestInitializer(), scanned);
    if (initializer != null) {
      context.addServletContainerInitializer(initializer, scanned);
    }
    FilterDef filter = new FilterDef();
    filter.setFilterName("overload");
    filter.setFilterClass(OverloadFilter.class.getName());
    filter.setAsyncSupported("true");
    // As the EE 10 tests: the rate controller, 5 requests/s, one token deep.
    filter.addInitParameter("admission.controller", "rate");
    filter.addInitParameter("controller.initialRate", "5");
    filter.addInitParameter("controller.bucketDepth", "1");
    context.addFilterDef(filter);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName("overload");
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);
    if (jerseyServlet) {
      context.addServletContainerInitializer(
          (classes, servletContext) -> {
            ServletRegistration.Dynamic jersey =
                servletContext.addServlet("jersey", ServletContainer.class);
            jersey.setInitParameter("jakarta.ws.rs.Application", ShopApplication.class.getName());
            jersey.setAsyncSupported(true);
            jersey.addMapping("/api/*");
          },
          null);
    }
    tomcat.start();
    try {
      URI base =
          URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/api/shop/");
      ShopChecks.methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(base, "ShopResource");
    } finally {
      tomcat.stop();
      tomcat.destroy();
    }
  }
}
