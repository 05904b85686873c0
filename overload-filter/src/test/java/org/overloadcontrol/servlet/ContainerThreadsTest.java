package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.pipeline.ConfigLayers;

/** The concurrency limit's maximum from the container's thread pool, read over JMX. */
class ContainerThreadsTest {

  /** What Tomcat registers for a connector's pool: an attribute {@code maxThreads}. */
  private static final class Pool implements DynamicMBean {
    private final int maxThreads;

    Pool(int maxThreads) {
      this.maxThreads = maxThreads;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      if (!"maxThreads".equals(attribute)) {
        throw new AttributeNotFoundException(attribute);
      }
      return maxThreads;
    }

    @Override
    public void setAttribute(Attribute attribute) {
      throw new UnsupportedOperationException();
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
      return new AttributeList();
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
      return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MBeanInfo getMBeanInfo() {
      return new MBeanInfo(
          Pool.class.getName(),
          "pool",
          new MBeanAttributeInfo[] {
            new MBeanAttributeInfo("maxThreads", "int", "max threads", true, false, false)
          },
          null,
          null,
          null);
    }
  }

  private final MBeanServer server = MBeanServerFactory.newMBeanServer();

  /** The lowest layer the filter's configuration gets from the threads, or null for none. */
  private static ConfigSource layer(
      MBeanServer server, Object context, List<ConfigSource> configured) {
    ConfigLayers layers = ConfigLayers.builder();
    configured.forEach(layers::keys);
    layers.containerThreads(
        ContainerThreads.ORIGIN, ContainerThreads.count(server, context).orElse(0));
    return layers.boundByThreads() ? layers.layers().get(0) : null;
  }

  @Test
  void theLargestPoolBoundsTheLimit() throws Exception {
    server.registerMBean(new Pool(40), new ObjectName("Catalina:type=ThreadPool,name=\"a\""));
    server.registerMBean(new Pool(75), new ObjectName("Catalina:type=Executor,name=\"b\""));
    ConfigSource layer = layer(server, null, List.of());
    // Two in a hundred under the largest pool's threads, at least two
    // (AdmissionSettings.ceilingFor).
    assertThat(layer.values()).containsEntry("admission.maxLimit", "73");
    OverloadConfig config =
        OverloadConfig.parse(
            List.of(layer, ConfigSource.of("test", Map.of("endpoints.e.target", "100ms"))));
    assertThat(AdmissionSettings.from(config).groupOf("e").maxLimit()).isEqualTo(73);
    assertThat(AdmissionSettings.from(config).groupOf("e").initialLimit()).isEqualTo(73);
  }

  @Test
  void withoutAPoolTheDefaultHolds() {
    assertThat(layer(server, null, List.of())).isNull();
  }

  @Test
  void theOperatorsKeysWin() throws Exception {
    server.registerMBean(new Pool(40), new ObjectName("Catalina:type=ThreadPool,name=\"a\""));
    ConfigSource operator =
        ConfigSource.of(
            "operator", Map.of("admission.maxLimit", "30", "endpoints.e.target", "100ms"));
    OverloadConfig config =
        OverloadConfig.parse(List.of(layer(server, null, List.of(operator)), operator));
    assertThat(AdmissionSettings.from(config).groupOf("e").maxLimit()).isEqualTo(30);
    // An initial limit above the threads started before: it still starts, at the old default.
    ConfigSource high = ConfigSource.of("operator", Map.of("admission.initialLimit", "150"));
    assertThat(layer(server, null, List.of(high))).isNull();
  }

  /** The public chain an embedded Jetty 12 context answers, with a pool of 40 threads. */
  public static final class JettyContext {
    public Handler getContextHandler() {
      return new Handler();
    }
  }

  /** Jetty's context handler, as far as the chain goes. */
  public static final class Handler {
    public JettyServer getServer() {
      return new JettyServer();
    }
  }

  /** Jetty's server. */
  public static final class JettyServer {
    public JettyPool getThreadPool() {
      return new JettyPool();
    }
  }

  /** Jetty's {@code QueuedThreadPool}. */
  public static final class JettyPool {
    public int getMaxThreads() {
      return 40;
    }
  }

  @Test
  void jettysPoolBoundsTheLimitWithoutJmx() {
    // Nothing registered over JMX: an embedded Jetty without its MBean container.
    ConfigSource layer = layer(server, new JettyContext(), List.of());
    assertThat(layer).isNotNull();
    assertThat(layer.values()).containsEntry("admission.maxLimit", "38");
    assertThat(layer(server, new Object(), List.of())).isNull();
  }
}
