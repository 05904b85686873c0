package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/** The concurrency limit's maximum from the server's thread pool. */
class ServerThreadsTest {

  @Test
  void theServersThreadPoolBoundsTheLimit() {
    OverloadHandler handler =
        OverloadHandler.builder().put("endpoints.default.target", "100ms").build();
    // Not on a server yet: the key's default.
    assertThat(handler.parseSettings().maxLimit("default")).isEqualTo(200);
    Server server = new Server(new QueuedThreadPool(48));
    server.setHandler(handler);
    // Two under the pool's 48 threads (AdmissionSettings.ceilingFor).
    assertThat(handler.parseSettings().maxLimit("default")).isEqualTo(46);
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void aPoolOnVirtualThreadsIsNoCeiling() {
    OverloadHandler handler =
        OverloadHandler.builder().put("endpoints.default.target", "100ms").build();
    // What Spring Boot's Jetty runs with spring.threads.virtual.enabled: its maxThreads still
    // reads 48, but every request gets a virtual thread.
    QueuedThreadPool pool = new QueuedThreadPool(48);
    pool.setVirtualThreadsExecutor(VirtualThreads.getDefaultVirtualThreadsExecutor());
    new Server(pool).setHandler(handler);
    assertThat(handler.parseSettings().maxLimit("default")).isEqualTo(200);
  }

  @Test
  void theOperatorsKeyWins() {
    OverloadHandler handler =
        OverloadHandler.builder()
            .put("endpoints.default.target", "100ms")
            .put("admission.maxLimit", "20")
            .build();
    new Server(new QueuedThreadPool(48)).setHandler(handler);
    assertThat(handler.parseSettings().maxLimit("default")).isEqualTo(20);
  }
}
