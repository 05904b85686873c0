package org.overloadcontrol.it.matrix;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.support.ContainerKind;

/** Tomcat 11 with its virtual-thread executor ({@code useVirtualThreads}); Java 21+ only. */
@EnabledForJreRange(min = JRE.JAVA_21)
class Tomcat11VirtualThreadsIT {

  @TempDir Path apps;

  @Test
  void theStartLineSaysTheRequestsRunOnVirtualThreads() throws Exception {
    new VirtualThreadsScenario()
        .run(apps, "tomcat11-vt", ContainerKind.TOMCAT::start, "Tomcat's virtual-thread executor");
  }

  @Test
  void theMatrixScenarioPassesOnVirtualThreads() throws Exception {
    new ContainerMatrixScenario()
        .run(
            apps,
            "tomcat11-vt",
            VirtualThreadsScenario.onVirtualThreads(ContainerKind.TOMCAT::start));
  }
}
