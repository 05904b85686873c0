package org.overloadcontrol.it.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.catalina.util.ServerInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.support.ContainerKind;

/** The container matrix's scenario on Tomcat 11 (Servlet 6.1). */
class Tomcat11MatrixIT {

  @TempDir Path apps;

  @Test
  void theScenarioPassesOnTomcat11() throws Exception {
    assertThat(ServerInfo.getServerNumber()).as("the Tomcat on the class path").startsWith("11.");
    new ContainerMatrixScenario().run(apps, "tomcat11", ContainerKind.TOMCAT::start);
  }
}
