package org.overloadcontrol.rest;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.jboss.resteasy.plugins.servlet.ResteasyServletInitializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * RESTEasy 6 behind the overload filter in Tomcat 10.1, over HTTP on 127.0.0.1: the same
 * resource and checks as {@link JerseyOnJettyIT}, with both implementations' initializers handed
 * the classes as Tomcat's annotation scanning would.
 */
class ResteasyOnTomcatIT {

  private static Tomcat tomcat;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    Path dir = Files.createTempDirectory("resteasy-it");
    tomcat = new Tomcat();
    tomcat.setBaseDir(dir.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    Context context = tomcat.addContext("", dir.toString());
    Set<Class<?>> scanned = Set.of(ShopResource.class, ShopApplication.class);
    context.addServletContainerInitializer(new OverloadRestInitializer(), scanned);
    context.addServletContainerInitializer(new ResteasyServletInitializer(), scanned);
    FilterDef filter = new FilterDef();
    filter.setFilterName("overload");
    filter.setFilterClass(OverloadFilter.class.getName());
    filter.setAsyncSupported("true");
    // As in JerseyOnJettyIT: the rate controller, 5 requests/s, one token deep.
    filter.addInitParameter("admission.controller", "rate");
    filter.addInitParameter("controller.initialRate", "5");
    filter.addInitParameter("controller.bucketDepth", "1");
    context.addFilterDef(filter);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName("overload");
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);
    tomcat.start();
    base = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/api/shop/");
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }

  @Test
  void eachResourceMethodHasItsOwnEndpointTargetAndClassAndOnlyTheOverloadedOneIsShed()
      throws Exception {
    ShopChecks.methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(base, "ShopResource");
  }
}
