package org.overloadcontrol.sample;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The parts of the shop's web.xml the tests check, read with the JDK's DOM parser. */
final class WebXml {

  static final Path WEBAPP = Path.of("src", "main", "webapp");

  final Map<String, String> servletClasses = new LinkedHashMap<>();
  final Map<String, List<String>> mappings = new LinkedHashMap<>();
  final Map<String, String> contextParams = new LinkedHashMap<>();
  final List<String> listeners = new ArrayList<>();
  final Map<String, String> filterClasses = new LinkedHashMap<>();
  final Map<String, Boolean> servletAsync = new LinkedHashMap<>();
  final boolean metadataComplete;

  WebXml() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    Document doc = factory.newDocumentBuilder().parse(WEBAPP.resolve("WEB-INF/web.xml").toFile());
    metadataComplete = "true".equals(doc.getDocumentElement().getAttribute("metadata-complete"));
    for (Element s : elements(doc, "servlet")) {
      String name = text(s, "servlet-name");
      servletClasses.put(name, text(s, "servlet-class"));
      servletAsync.put(name, "true".equals(text(s, "async-supported")));
    }
    for (Element m : elements(doc, "servlet-mapping")) {
      mappings
          .computeIfAbsent(text(m, "servlet-name"), k -> new ArrayList<>())
          .add(text(m, "url-pattern"));
    }
    for (Element p : elements(doc, "context-param")) {
      contextParams.put(text(p, "param-name"), text(p, "param-value"));
    }
    for (Element l : elements(doc, "listener")) {
      listeners.add(text(l, "listener-class"));
    }
    for (Element f : elements(doc, "filter")) {
      filterClasses.put(text(f, "filter-name"), text(f, "filter-class"));
    }
  }

  private static List<Element> elements(Document doc, String tag) {
    NodeList nodes = doc.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }

  private static String text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().trim();
  }
}
