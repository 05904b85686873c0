package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Answers.CALLS_REAL_METHODS;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

import jakarta.servlet.ServletContext;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Requests on virtual threads: found at start in Tomcat's JMX beans and Jetty's thread pool,
 * else on the first request; then the container's thread count is no ceiling.
 */
class VirtualThreadsTest {

  /** A bean with fixed attributes, as Tomcat's model beans expose a connector's endpoint. */
  private record Bean(Map<String, Object> attributes) implements DynamicMBean {
    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      if (!attributes.containsKey(attribute)) {
        throw new AttributeNotFoundException(attribute);
      }
      return attributes.get(attribute);
    }

    @Override
    public void setAttribute(Attribute attribute) {
      throw new UnsupportedOperationException();
    }

    @Override
    public AttributeList getAttributes(String[] names) {
      return new AttributeList();
    }

    @Override
    public AttributeList setAttributes(AttributeList list) {
      return new AttributeList();
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MBeanInfo getMBeanInfo() {
      return new MBeanInfo(
          Bean.class.getName(),
          "bean",
          attributes.keySet().stream()
              .map(a -> new MBeanAttributeInfo(a, "java.lang.Object", a, true, false, false))
              .toArray(MBeanAttributeInfo[]::new),
          null,
          null,
          null);
    }
  }

  /** What Jetty's servlet context leads to: its handler, server and thread pool. */
  public static final class JettyContext {
    private final Object pool;

    JettyContext(Object pool) {
      this.pool = pool;
    }

    public JettyContext getServer() {
      return this;
    }

    public Object getThreadPool() {
      return pool;
    }
  }

  /** Named as Jetty's. */
  public static final class VirtualThreadPool {}

  /** A QueuedThreadPool, with or without a virtual-thread executor. */
  public static final class QueuedThreadPool {
    private final Object executor;

    QueuedThreadPool(Object executor) {
      this.executor = executor;
    }

    public Object getVirtualThreadsExecutor() {
      return executor;
    }
  }

  private static final ObjectName TOMCAT_POOL = name("VtTestCatalina:type=ThreadPool,name=\"vt\"");

  private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();

  @AfterEach
  void unregister() throws Exception {
    if (platform.isRegistered(TOMCAT_POOL)) {
      platform.unregisterMBean(TOMCAT_POOL);
    }
  }

  @Test
  void tomcatsVirtualThreadExecutorIsNoThreadCeiling() throws Exception {
    // Tomcat with useVirtualThreads still reports the pool it was configured with.
    platform.registerMBean(
        new Bean(Map.of("maxThreads", 48, "useVirtualThreads", true)), TOMCAT_POOL);
    FilterHarness harness = new FilterHarness();
    harness.initParams.put("endpoints.s.target", "100ms");
    FilterConfiguration read =
        FilterConfiguration.read(harness.filterConfig(), new DefaultRejectionHandler());
    assertThat(read.virtualThreads())
        .isEqualTo("Tomcat's virtual-thread executor, connector \"vt\"");
    assertThat(read.maxLimitFromThreads()).isFalse();
    assertThat(read.settings().maxLimit("s")).isEqualTo(200);
  }

  @Test
  void tomcatsPlatformPoolStillBoundsTheLimit() throws Exception {
    platform.registerMBean(
        new Bean(Map.of("maxThreads", 48, "useVirtualThreads", false)), TOMCAT_POOL);
    FilterHarness harness = new FilterHarness();
    harness.initParams.put("endpoints.s.target", "100ms");
    FilterConfiguration read =
        FilterConfiguration.read(harness.filterConfig(), new DefaultRejectionHandler());
    assertThat(read.virtualThreads()).isNull();
    assertThat(read.maxLimitFromThreads()).isTrue();
    // Two under the pool's 48 threads (AdmissionSettings.ceilingFor).
    assertThat(read.settings().maxLimit("s")).isEqualTo(46);
  }

  @Test
  void aTomcatVirtualThreadExecutorDeclaredAsAnExecutorIsFound() throws Exception {
    MBeanServer server = MBeanServerFactory.newMBeanServer();
    server.registerMBean(
        new Bean(
            Map.of(
                "modelerType",
                "org.apache.catalina.core.StandardVirtualThreadExecutor",
                "maxThreads",
                200)),
        name("Catalina:type=Executor,name=\"vexec\""));
    assertThat(VirtualThreads.tomcatPool(server))
        .isEqualTo("Tomcat's virtual-thread executor \"vexec\"");
    server.registerMBean(
        new Bean(Map.of("modelerType", "org.apache.catalina.core.StandardThreadExecutor")),
        name("Catalina:type=Executor,name=\"pool\""));
    MBeanServer platformOnly = MBeanServerFactory.newMBeanServer();
    platformOnly.registerMBean(
        new Bean(Map.of("modelerType", "org.apache.catalina.core.StandardThreadExecutor")),
        name("Catalina:type=Executor,name=\"pool\""));
    assertThat(VirtualThreads.tomcatPool(platformOnly)).isNull();
  }

  @Test
  void jettysPoolIsReadFromTheServletContext() {
    assertThat(VirtualThreads.jettyPool(contextOf(new VirtualThreadPool())))
        .isEqualTo("Jetty's VirtualThreadPool");
    assertThat(VirtualThreads.jettyPool(contextOf(new QueuedThreadPool(new Object()))))
        .isEqualTo("Jetty's QueuedThreadPool with a virtual-thread executor");
    assertThat(VirtualThreads.jettyPool(contextOf(new QueuedThreadPool(null)))).isNull();
    assertThat(VirtualThreads.jettyPool(mock(ServletContext.class))).isNull();
  }

  @Test
  void theStartLineNamesTheCeiling() {
    assertThat(VirtualThreadNotice.atStart("Jetty's VirtualThreadPool", 200))
        .isEqualTo(
            "; requests run on virtual threads (Jetty's VirtualThreadPool): no thread pool bounds"
                + " them, the concurrency limit's ceiling is admission.maxLimit (200)");
  }

  @Test
  void aPlatformThreadIsNotVirtualAndTheNoticeStaysSilent() {
    assertThat(VirtualThreads.isVirtual(Thread.currentThread())).isFalse();
    ServletContext context = mock(ServletContext.class);
    VirtualThreadNotice notice = new VirtualThreadNotice(context, "overload", false, 200, false);
    notice.onRequest();
    verify(context, never()).log(anyString());
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void theFirstRequestOnAVirtualThreadSaysSoOnce() throws Exception {
    ServletContext context = mock(ServletContext.class);
    VirtualThreadNotice notice = new VirtualThreadNotice(context, "overload", false, 48, true);
    boolean[] virtual = new boolean[1];
    onVirtualThread(
        () -> {
          virtual[0] = VirtualThreads.isVirtual(Thread.currentThread());
          notice.onRequest();
          notice.onRequest();
        });
    onVirtualThread(notice::onRequest);
    assertThat(virtual[0]).isTrue();
    verify(context, times(1))
        .log(contains("requests run on virtual threads, which the container did not say"));
    verify(context).log(contains("admission.maxLimit (48, taken from the container's request"));
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void aNoticeTheStartLineGaveIsNotRepeated() throws Exception {
    ServletContext context = mock(ServletContext.class);
    VirtualThreadNotice notice = new VirtualThreadNotice(context, "overload", true, 200, false);
    onVirtualThread(notice::onRequest);
    verify(context, never()).log(anyString());
  }

  /** Runs {@code task} on a new virtual thread and waits for it (Java 21, called by name). */
  private static void onVirtualThread(Runnable task) throws Exception {
    Thread thread =
        (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
    thread.join();
  }

  /** A servlet context whose class has Jetty's public getter, the rest mocked. */
  public abstract static class JettyServletContext implements ServletContext {
    private Object handler;

    public Object getContextHandler() {
      return handler;
    }
  }

  private static ServletContext contextOf(Object pool) {
    JettyServletContext context =
        mock(JettyServletContext.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    context.handler = new JettyContext(pool);
    return context;
  }

  private static ObjectName name(String name) {
    try {
      return new ObjectName(name);
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
