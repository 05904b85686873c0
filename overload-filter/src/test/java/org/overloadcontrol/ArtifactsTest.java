package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What a user's build gets, read from the poms: a WAR with only the filter pulls the filter, the
 * core and one small library (Caffeine; HdrHistogram is shaded into the core's jar, SLF4J is
 * optional), nothing optional (metrics, dashboard, YAML, Commons Math); the BOM lists every
 * published module.
 */
class ArtifactsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Modules that are built but not published. */
  private static final Set<String> UNPUBLISHED =
      Set.of(
          "sample-webapp",
          "src-it",
          "overload-bom",
          "it-tomcat11",
          "sample-spring-boot",
          "sample-jakarta-rest",
          "sample-jetty-handler",
          "it-jetty121",
          "it-spring-boot4");

  private static Document pom(String module) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(ROOT.resolve(module).resolve("pom.xml").toFile());
  }

  private static List<Element> children(Node parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name, String otherwise) {
    List<Element> e = children(parent, name);
    return e.isEmpty() ? otherwise : e.get(0).getTextContent().trim();
  }

  /** The module's own dependencies that reach a user at run time: compile or runtime, not optional. */
  private static List<String> runtimeDependencies(String module) throws Exception {
    Element project = pom(module).getDocumentElement();
    List<String> out = new ArrayList<>();
    for (Element deps : children(project, "dependencies")) {
      for (Element d : children(deps, "dependency")) {
        String scope = text(d, "scope", "compile");
        if ((scope.equals("compile") || scope.equals("runtime"))
            && !text(d, "optional", "false").equals("true")) {
          out.add(text(d, "groupId", "") + ":" + text(d, "artifactId", ""));
        }
      }
    }
    return out;
  }

  /** The artifacts the module's shade plugin puts into its jar: its published POM drops them. */
  private static List<String> shaded(String module) throws Exception {
    List<String> out = new ArrayList<>();
    Element project = pom(module).getDocumentElement();
    for (Element build : children(project, "build")) {
      for (Element plugins : children(build, "plugins")) {
        for (Element plugin : children(plugins, "plugin")) {
          if (!text(plugin, "artifactId", "").equals("maven-shade-plugin")) {
            continue;
          }
          for (Element executions : children(plugin, "executions")) {
            for (Element execution : children(executions, "execution")) {
              for (Element configuration : children(execution, "configuration")) {
                for (Element set : children(configuration, "artifactSet")) {
                  for (Element includes : children(set, "includes")) {
                    for (Element include : children(includes, "include")) {
                      out.add(include.getTextContent().trim());
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** What a user's build gets from the module's published POM. */
  private static List<String> publishedRuntimeDependencies(String module) throws Exception {
    List<String> out = runtimeDependencies(module);
    out.removeAll(shaded(module));
    return out;
  }

  @Test
  void aWarWithOnlyTheFilterGetsTheCoreAndOneSmallLibrary() throws Exception {
    assertThat(publishedRuntimeDependencies("overload-filter"))
        .containsExactly("io.github.overloadcontrol:overload-core");
    assertThat(publishedRuntimeDependencies("overload-core"))
        .containsExactly("com.github.ben-manes.caffeine:caffeine");
    assertThat(shaded("overload-core"))
        .as("HdrHistogram travels inside the core's jar")
        .containsExactly("org.hdrhistogram:HdrHistogram");
  }

  @Test
  void theBomListsEveryPublishedModule() throws Exception {
    Element parent = pom(".").getDocumentElement();
    List<String> published = new ArrayList<>();
    for (Element modules : children(parent, "modules")) {
      for (Element m : children(modules, "module")) {
        if (!UNPUBLISHED.contains(m.getTextContent().trim())) {
          published.add(m.getTextContent().trim());
        }
      }
    }
    List<String> listed = new ArrayList<>();
    Element bom = pom("overload-bom").getDocumentElement();
    for (Element dm : children(bom, "dependencyManagement")) {
      for (Element deps : children(dm, "dependencies")) {
        for (Element d : children(deps, "dependency")) {
          assertThat(text(d, "groupId", "")).isEqualTo("io.github.overloadcontrol");
          listed.add(text(d, "artifactId", ""));
        }
      }
    }
    assertThat(listed).containsExactlyInAnyOrderElementsOf(published);
    assertThat(text(bom, "version", ""))
        .as("the BOM's version is the project's")
        .isEqualTo(text(parent, "version", ""));
  }
}
