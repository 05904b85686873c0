package org.overloadcontrol.it.support;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The parent of every web-app class loader in our embedded containers: the class path the
 * containers run on, without its SLF4J. A standalone container hides its own logging from the
 * applications it deploys (Tomcat has no SLF4J on its common class path; jetty-home's
 * {@code slf4j-api} module adds {@code org.slf4j.} to the web apps' hidden classes); embedded,
 * the containers share the class path of the tests or the launcher, which holds
 * {@code slf4j-api} and {@code slf4j-simple}.
 *
 * <p>Without this, a WAR that brings its own SLF4J (the sample shop: {@code slf4j-api} and
 * {@code slf4j-jdk14} in {@code WEB-INF/lib}) found the class path's provider through its
 * {@code ServiceLoader} ({@code META-INF/services} entries are looked up in the parent too),
 * loaded {@code SimpleServiceProvider} from the parent, linked to the parent's copy of the API,
 * and SLF4J printed {@code SLF4J(E): ... SimpleServiceProvider not a subtype} at every start.
 * Hidden here: classes in {@code org.slf4j.}, their resources, and the {@code META-INF/services}
 * files naming SLF4J interfaces. A web app without SLF4J of its own is unaffected: the filter's
 * classes then come from the class path too, and resolve SLF4J through their own loader.
 *
 * <p>A {@link URLClassLoader} without URLs of its own only so that Tomcat, which walks the
 * parents to build a class path for JSP compilers, does not log an "Unknown class loader".
 */
final class WebAppParentLoader extends URLClassLoader {

  private static final String HIDDEN_PACKAGE = "org.slf4j.";
  private static final String HIDDEN_RESOURCES = "org/slf4j/";
  private static final String HIDDEN_SERVICES = "META-INF/services/org.slf4j.";

  static {
    registerAsParallelCapable();
  }

  WebAppParentLoader(ClassLoader parent) {
    super("web-app-parent", new URL[0], parent);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (name.startsWith(HIDDEN_PACKAGE)) {
      throw new ClassNotFoundException(
          name + " (the container's own SLF4J is hidden from web" + " applications)");
    }
    return super.loadClass(name, resolve);
  }

  @Override
  public URL getResource(String name) {
    return hidden(name) ? null : super.getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    return hidden(name) ? Collections.emptyEnumeration() : super.getResources(name);
  }

  /** Whether {@code name} is a resource of the hidden SLF4J: its classes or its services. */
  static boolean hidden(String name) {
    String n = name.startsWith("/") ? name.substring(1) : name;
    return n.startsWith(HIDDEN_RESOURCES) || n.startsWith(HIDDEN_SERVICES);
  }
}
