package org.overloadcontrol.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.matrix.ContainerMatrixScenario;

/** The container matrix's scenario on Jetty 12.1, ee11 (Servlet 6.1). */
class Jetty121MatrixIT {

  @TempDir Path apps;

  @Test
  void theScenarioPassesOnJetty121Ee11() throws Exception {
    assertThat(Server.getVersion()).as("the Jetty on the class path").startsWith("12.1.");
    new ContainerMatrixScenario().run(apps, "jetty121", Ee11JettyContainer::start);
  }
}
