package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.xml.XmlConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.OverloadContext;

/**
 * The Jetty module as start.jar uses it: the {@code [xml]} files the module names exist, and
 * {@code etc/overload.xml}, run by {@link XmlConfiguration} against a {@link Server} with the
 * properties start.jar passes ({@code jetty.base}, the module's {@code jetty.overload.*}),
 * inserts a started {@link OverloadHandler} in front of the server's handler, configured from
 * the YAML file in the base.
 */
class JettyModuleTest {

  private static final Path CONFIG = Path.of("src/main/config");

  @Test
  void theModuleNamesFilesThatExistAndItsLibraryDirectory() throws Exception {
    List<String> lines = Files.readAllLines(CONFIG.resolve("modules/overload.mod"));
    List<String> xml = section(lines, "xml");
    assertThat(xml).containsExactly("etc/overload.xml");
    for (String file : xml) {
      assertThat(CONFIG.resolve(file)).isRegularFile();
    }
    assertThat(section(lines, "depend")).contains("server");
    assertThat(section(lines, "lib")).containsExactly("lib/overload/*.jar");
    assertThat(CONFIG.resolve("etc/overload.yaml")).isRegularFile();
  }

  private static List<String> section(List<String> lines, String name) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String line : lines) {
      String t = line.trim();
      if (t.startsWith("[") && t.endsWith("]")) {
        in = t.equals("[" + name + "]");
      } else if (in && !t.isEmpty() && !t.startsWith("#")) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void theXmlInsertsTheHandlerConfiguredFromTheBasesYamlFile(@TempDir Path base) throws Exception {
    Files.createDirectories(base.resolve("etc"));
    Files.writeString(
        base.resolve("etc/overload.yaml"),
        "endpoints:\n  search:\n" + "    target: 500ms\n    paths: [/search/*]\n");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            OverloadContext ctx = (OverloadContext) request.getAttribute(OverloadContext.ATTRIBUTE);
            JettyHarness.answer(response, callback, ctx == null ? "none" : ctx.endpoint());
            return true;
          }
        });
    try (ResourceFactory.Closeable resources = ResourceFactory.closeable()) {
      XmlConfiguration xml =
          new XmlConfiguration(
              resources.newResource(CONFIG.resolve("etc/overload.xml").toAbsolutePath()));
      xml.getProperties()
          .putAll(Map.of("jetty.base", base.toString(), "jetty.overload.defaultEndpoint", "site"));
      xml.configure(server);
    }
    assertThat(server.getHandler()).isInstanceOf(OverloadStatusHandler.class);
    assertThat(((OverloadStatusHandler) server.getHandler()).getHandler())
        .isInstanceOf(OverloadHandler.class);
    OverloadHandler handler =
        (OverloadHandler) ((OverloadStatusHandler) server.getHandler()).getHandler();
    assertThat(handler.getHandler()).isNotNull();
    assertThat(handler.getConfigFile()).isEqualTo("etc/overload.yaml");
    server.start();
    org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient();
    client.start();
    try {
      String uri = "http://127.0.0.1:" + connector.getLocalPort();
      ContentResponse search = client.GET(uri + "/search/x");
      assertThat(search.getContentAsString()).isEqualTo("search");
      assertThat(client.GET(uri + "/home").getContentAsString()).isEqualTo("site");
      assertThat(handler.runtime().engine().config().endpoints().get("search").targetNanos())
          .isEqualTo(500_000_000L);
      ContentResponse status = client.GET(uri + "/overload/status");
      assertThat(status.getStatus()).isEqualTo(200);
      assertThat(status.getContentAsString()).contains("\"name\":\"search\"");
    } finally {
      client.stop();
      server.stop();
    }
  }
}
