package org.overloadcontrol.servlet;

import java.util.OptionalInt;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The container's request threads, read where the servlet API does not say: from Jetty 12's
 * server thread pool, reached from the servlet context with public methods (so an embedded
 * Jetty without its JMX is bounded too), else from what a framework that started the container
 * declared in the context ({@link OverloadFilter#CONTAINER_THREADS_ATTRIBUTE}), else from the
 * JMX beans Tomcat registers for its
 * connectors' thread pools and executors ({@code maxThreads}). They bound a concurrency limit
 * (docs/controller.md): a limit above them can never be reached, so it would never be judged,
 * and requests over it would wait for a thread in the container instead of in the wait queues.
 */
final class ContainerThreads {

  /** Bean name patterns whose {@code maxThreads} is a pool of request threads. */
  private static final String[] POOLS = {
    "*:type=ThreadPool,*", "*:type=Executor,*", "*:type=queuedthreadpool,*"
  };

  private ContainerThreads() {}

  /** What the threads are, in the name of the layer they make. */
  static final String ORIGIN = "the container's request threads";

  /** The container's request threads, or empty when they cannot be read. */
  static OptionalInt count(MBeanServer server, Object context) {
    OptionalInt threads = jettyMaxThreads(context);
    if (threads.isEmpty()) {
      threads = declared(context);
    }
    if (threads.isEmpty()) {
      threads = maxThreads(server);
    }
    return threads;
  }

  /**
   * Jetty 12's server pool's {@code maxThreads}, from {@code context} (a servlet context) through
   * {@code getContextHandler().getServer().getThreadPool().getMaxThreads()}; empty in another
   * container or when a step is not there.
   */
  static OptionalInt jettyMaxThreads(Object context) {
    Object threads =
        VirtualThreads.call(
            VirtualThreads.call(
                VirtualThreads.call(VirtualThreads.call(context, "getContextHandler"), "getServer"),
                "getThreadPool"),
            "getMaxThreads");
    return threads instanceof Integer n && n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
  }

  /** What a framework that started the container declared ({@code CONTAINER_THREADS_ATTRIBUTE}). */
  static OptionalInt declared(Object context) {
    return context instanceof jakarta.servlet.ServletContext c
            && c.getAttribute(OverloadFilter.CONTAINER_THREADS_ATTRIBUTE) instanceof Integer n
            && n > 0
        ? OptionalInt.of(n)
        : OptionalInt.empty();
  }

  /** The largest {@code maxThreads} of the container's pools, if any is registered. */
  static OptionalInt maxThreads(MBeanServer server) {
    int largest = 0;
    for (String pattern : POOLS) {
      java.util.Set<ObjectName> names;
      try {
        names = server.queryNames(new ObjectName(pattern), null);
      } catch (javax.management.MalformedObjectNameException e) {
        throw new IllegalStateException(e);
      }
      for (ObjectName name : names) {
        try {
          if (server.getAttribute(name, "maxThreads") instanceof Integer n) {
            largest = Math.max(largest, n);
          }
        } catch (javax.management.JMException | RuntimeException e) {
          // A bean without the attribute, or one that went away: not a pool we can read.
        }
      }
    }
    return largest > 0 ? OptionalInt.of(largest) : OptionalInt.empty();
  }
}
