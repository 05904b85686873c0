package org.overloadcontrol.it.support;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.matrix.ContainerMatrixScenario;
import org.overloadcontrol.it.matrix.VirtualThreadsScenario;

/** Jetty 12.1 ee11 on its {@code VirtualThreadPool}; Java 21+ only. */
@EnabledForJreRange(min = JRE.JAVA_21)
class Jetty121VirtualThreadsIT {

  @TempDir Path apps;

  @Test
  void theStartLineSaysTheRequestsRunOnVirtualThreads() throws Exception {
    new VirtualThreadsScenario()
        .run(apps, "jetty121-vt", Ee11JettyContainer::start, "Jetty's VirtualThreadPool");
  }

  @Test
  void theMatrixScenarioPassesOnVirtualThreads() throws Exception {
    new ContainerMatrixScenario()
        .run(
            apps,
            "jetty121-vt",
            VirtualThreadsScenario.onVirtualThreads(Ee11JettyContainer::start));
  }
}
