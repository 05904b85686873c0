package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Whether the container runs requests on virtual threads (Java 21+), found without compiling
 * against Java 21 or a container: then no pool of request threads bounds concurrency, the
 * container's {@code maxThreads} is no ceiling for the concurrency limit (Tomcat still reports
 * its configured 200, Spring Boot's executor reports none), and the filter is the only bound.
 *
 * <p>At start it looks where each container says so: Tomcat's connector pools over JMX
 * ({@code useVirtualThreads}, or an executor whose class is a virtual-thread executor), Jetty's
 * thread pool through the servlet context's public {@code getContextHandler().getServer()}
 * ({@code VirtualThreadPool}, or a {@code QueuedThreadPool} handing jobs to a virtual-thread
 * executor). Where neither tells (Tomcat without JMX, as Spring Boot runs it), {@link
 * #isVirtual(Thread)} on the first request does.
 */
final class VirtualThreads {

  /** {@code Thread.isVirtual()}, or null before Java 21. */
  private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

  private VirtualThreads() {}

  /** Whether {@code thread} is virtual; never on Java 17. */
  static boolean isVirtual(Thread thread) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(thread);
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * How the container runs requests on virtual threads, in words for the start line ("Tomcat's
   * virtual-thread executor"), or null when it does not say so.
   */
  static String atStart(MBeanServer server, ServletContext context) {
    String jetty = jettyPool(context);
    return jetty != null ? jetty : tomcatPool(server);
  }

  /** Tomcat's connectors over JMX: an endpoint or an executor on virtual threads. */
  static String tomcatPool(MBeanServer server) {
    for (ObjectName name : names(server, "*:type=ThreadPool,*")) {
      if (Boolean.TRUE.equals(attribute(server, name, "useVirtualThreads"))) {
        return "Tomcat's virtual-thread executor, connector " + name.getKeyProperty("name");
      }
    }
    for (ObjectName name : names(server, "*:type=Executor,*")) {
      // Tomcat's model beans expose their class as "modelerType".
      if (attribute(server, name, "modelerType") instanceof String type
          && type.contains("VirtualThread")) {
        return "Tomcat's virtual-thread executor " + name.getKeyProperty("name");
      }
    }
    return null;
  }

  /** Jetty 12's server thread pool, reached from the servlet context with public methods. */
  static String jettyPool(ServletContext context) {
    Object pool = call(call(call(context, "getContextHandler"), "getServer"), "getThreadPool");
    if (pool == null) {
      return null;
    }
    if (pool.getClass().getSimpleName().equals("VirtualThreadPool")) {
      return "Jetty's VirtualThreadPool";
    }
    if (call(pool, "getVirtualThreadsExecutor") != null) {
      return "Jetty's " + pool.getClass().getSimpleName() + " with a virtual-thread executor";
    }
    return null;
  }

  private static Set<ObjectName> names(MBeanServer server, String pattern) {
    try {
      return server.queryNames(new ObjectName(pattern), null);
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object attribute(MBeanServer server, ObjectName name, String attribute) {
    try {
      return server.getAttribute(name, attribute);
    } catch (javax.management.JMException | RuntimeException e) {
      return null; // not a bean of that kind, or it went away
    }
  }

  /** {@code target.method()} when {@code target} has such a public method, else null. */
  static Object call(Object target, String method) {
    if (target == null) {
      return null;
    }
    try {
      Method m = target.getClass().getMethod(method);
      return m.invoke(target);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // Another container, or a class we may not call: it does not tell.
      return null;
    }
  }

  private static MethodHandle isVirtualHandle() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }
}
