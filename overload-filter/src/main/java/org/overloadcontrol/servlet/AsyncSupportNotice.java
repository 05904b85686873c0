package org.overloadcontrol.servlet;

import jakarta.servlet.FilterRegistration;
import jakarta.servlet.Registration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.annotation.WebServlet;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.overloadcontrol.internal.pipeline.Settings;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Says once, at start, which filters and servlets of the web application lack async support
 * when wait queues are configured ({@code queue.permits}). A request can wait for a permit
 * without holding a container thread only if every filter and the servlet on its way are
 * async-supported; otherwise {@code queue.nonAsync} applies (by default it waits on its thread,
 * bounded by {@code maxWait}), which changes what the wait queues cost. That used to happen
 * silently.
 *
 * <p>The Servlet API has no getter for a registration's async support, so this reads what the
 * application declares: {@code <async-supported>} in {@code WEB-INF/web.xml}, else
 * {@code asyncSupported} of the class's {@code @WebServlet} / {@code @WebFilter}; a filter or
 * servlet declared in web.xml with neither lacks it. Registrations declared nowhere the filter
 * can read (the container's own default servlet, ones added by code) are left out rather than
 * guessed, and so are the status servlets, whose requests never wait.
 */
final class AsyncSupportNotice {

  private AsyncSupportNotice() {}

  /** At start: says which filters and servlets lack async support, if queues are on. */
  static void atStart(ServletContext context, Settings settings) {
    if (!settings.queuesEnabled()) {
      return;
    }
    List<String> lacking = lacking(context);
    if (!lacking.isEmpty()) {
      ContainerLog.warn(context, message(lacking, settings.rejectsWithoutAsync()));
    }
  }

  /**
   * @param refused whether such a request is refused at once ({@code queue.nonAsync: reject})
   *     rather than waiting on its thread
   */
  static String message(List<String> lacking, boolean refused) {
    String what =
        refused
            ? "is refused with 503 at once (queue.nonAsync: reject)"
            : "waits holding its container thread, up to queue.maxWait (queue.nonAsync: block)";
    return "overload-control: queue.permits is set, but "
        + String.join(", ", lacking)
        + (lacking.size() == 1 ? " is" : " are")
        + " not async-supported: a request through "
        + (lacking.size() == 1 ? "it" : "one of them")
        + " that must wait for a permit "
        + what
        + ". Declare <async-supported>true</async-supported> in web.xml (or asyncSupported = true"
        + " on @WebFilter / @WebServlet) for the filter and every servlet to wait without a"
        + " thread.";
  }

  /** "filter 'x'" and "servlet 'y'" for each registration known to lack async support. */
  static List<String> lacking(ServletContext context) {
    Map<String, Boolean> filtersInWebXml = new HashMap<>();
    Map<String, Boolean> servletsInWebXml = new HashMap<>();
    readWebXml(context, filtersInWebXml, servletsInWebXml);
    List<String> lacking = new ArrayList<>();
    for (Map.Entry<String, ? extends FilterRegistration> f :
        sorted(context.getFilterRegistrations()).entrySet()) {
      if (lacks(f.getKey(), f.getValue(), filtersInWebXml, context, WebFilter.class)) {
        lacking.add("filter '" + f.getKey() + "'");
      }
    }
    // The status servlets' requests pass the filter without admission: they never wait.
    java.util.Set<String> passThrough = StatusServlets.names(context);
    for (Map.Entry<String, ? extends ServletRegistration> s :
        sorted(context.getServletRegistrations()).entrySet()) {
      if (!passThrough.contains(s.getKey())
          && lacks(s.getKey(), s.getValue(), servletsInWebXml, context, WebServlet.class)) {
        lacking.add("servlet '" + s.getKey() + "'");
      }
    }
    return lacking;
  }

  private static <R> Map<String, R> sorted(Map<String, R> registrations) {
    return registrations == null ? Map.of() : new TreeMap<>(registrations);
  }

  private static boolean lacks(
      String name,
      Registration registration,
      Map<String, Boolean> webXml,
      ServletContext context,
      Class<? extends java.lang.annotation.Annotation> annotation) {
    Boolean declared = webXml.get(name);
    if (declared != null) {
      return !declared;
    }
    Boolean annotated = annotatedAsync(registration.getClassName(), context, annotation);
    if (annotated != null) {
      return !annotated;
    }
    return webXml.containsKey(name); // in web.xml without <async-supported>: false by default
  }

  /** The annotation's asyncSupported, or null when the class has no such annotation. */
  private static Boolean annotatedAsync(
      String className,
      ServletContext context,
      Class<? extends java.lang.annotation.Annotation> annotation) {
    if (className == null) {
      return null;
    }
    try {
      Class<?> type = Class.forName(className, false, context.getClassLoader());
      if (annotation == WebServlet.class && type.getAnnotation(WebServlet.class) != null) {
        return type.getAnnotation(WebServlet.class).asyncSupported();
      }
      if (annotation == WebFilter.class && type.getAnnotation(WebFilter.class) != null) {
        return type.getAnnotation(WebFilter.class).asyncSupported();
      }
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /**
   * Fills name → declared async support from web.xml: TRUE or FALSE where
   * {@code <async-supported>} is given; a name declared without it maps to null.
   */
  private static void readWebXml(
      ServletContext context, Map<String, Boolean> filters, Map<String, Boolean> servlets) {
    try (InputStream in = context.getResourceAsStream("/WEB-INF/web.xml")) {
      if (in == null) {
        return;
      }
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      // A descriptor is the application's own file, but it is parsed without fetching anything.
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      factory.setExpandEntityReferences(false);
      Document doc = factory.newDocumentBuilder().parse(in);
      declarations(doc, "filter", "filter-name", filters);
      declarations(doc, "servlet", "servlet-name", servlets);
    } catch (IOException | ParserConfigurationException | SAXException | RuntimeException e) {
      // The container parsed it already; if we cannot, we say nothing rather than guess.
      filters.clear();
      servlets.clear();
    }
  }

  private static void declarations(
      Document doc, String element, String nameElement, Map<String, Boolean> into) {
    NodeList declared = doc.getElementsByTagNameNS("*", element);
    for (int i = 0; i < declared.getLength(); i++) {
      Element e = (Element) declared.item(i);
      String name = child(e, nameElement);
      if (name == null) {
        continue;
      }
      String async = child(e, "async-supported");
      into.put(name, async == null ? null : Boolean.valueOf(async));
    }
  }

  private static String child(Element parent, String name) {
    NodeList children = parent.getElementsByTagNameNS("*", name);
    return children.getLength() == 0 ? null : children.item(0).getTextContent().strip();
  }
}
