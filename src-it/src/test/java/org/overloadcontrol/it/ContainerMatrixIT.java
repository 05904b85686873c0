package org.overloadcontrol.it;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.matrix.ContainerMatrixScenario;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * The container matrix's scenario on this module's containers, Jetty 12.0 (ee10) and Tomcat
 * 10.1; the modules {@code it-tomcat11} and {@code it-jetty121} run it on Tomcat 11 and Jetty
 * 12.1 (ee11).
 */
class ContainerMatrixIT {

  @TempDir static Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theScenarioPasses(ContainerKind kind) throws Exception {
    new ContainerMatrixScenario().run(apps, "matrix-" + kind, kind::start);
  }
}
