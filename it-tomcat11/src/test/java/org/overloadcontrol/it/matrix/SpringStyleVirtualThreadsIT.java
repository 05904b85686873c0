package org.overloadcontrol.it.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.overloadcontrol.it.support.LogCapture;
import org.overloadcontrol.it.support.ThreadNameServlet;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Tomcat 11 on virtual threads the way Spring Boot sets it up for {@code
 * spring.threads.virtual.enabled}: the connector's executor replaced by Tomcat's {@code
 * VirtualThreadExecutor}, so its JMX pool says neither {@code useVirtualThreads} nor a thread
 * count. The start line cannot tell; the first request on a virtual thread logs it, once.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class SpringStyleVirtualThreadsIT {

  @Test
  void theFirstRequestOnAVirtualThreadSaysSoOnce() throws Exception {
    Path dir = Files.createTempDirectory("vt-executor-it");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(dir.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    tomcat.getConnector().getProtocolHandler().setExecutor(new VirtualThreadExecutor("handler-"));
    Context context = tomcat.addContext("", dir.toString());
    FilterDef filter = new FilterDef();
    filter.setFilterName("overload");
    filter.setFilterClass(OverloadFilter.class.getName());
    filter.setAsyncSupported("true");
    filter.addInitParameter("endpoints.thread.target", "100ms");
    context.addFilterDef(filter);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName("overload");
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);
    context.addServletContainerInitializer(
        (classes, servletContext) ->
            servletContext.addServlet("thread", ThreadNameServlet.class).addMapping("/thread"),
        null);
    try (LogCapture log = new LogCapture()) {
      tomcat.start();
      try {
        URI uri =
            URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/thread");
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 3; i++) {
          HttpResponse<String> answer =
              http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
          assertThat(answer.statusCode()).isEqualTo(200);
          assertThat(answer.body()).startsWith("VirtualThread[");
        }
      } finally {
        tomcat.stop();
        tomcat.destroy();
      }
      List<String> lines = log.lines();
      assertThat(lines)
          .filteredOn(line -> line.contains("overload-control: filter 'overload' started"))
          .isNotEmpty()
          .noneMatch(line -> line.contains("virtual threads"));
      assertThat(lines)
          .filteredOn(line -> line.contains("requests run on virtual threads, which the container"))
          .as("the first request's notice, once (through SLF4J and the container's log)")
          .isNotEmpty()
          .allMatch(line -> line.contains("admission.maxLimit (200)"));
      assertThat(
              lines.stream()
                  .filter(line -> line.contains("which the container did not say"))
                  .count())
          .isLessThanOrEqualTo(2);
    }
  }
}
