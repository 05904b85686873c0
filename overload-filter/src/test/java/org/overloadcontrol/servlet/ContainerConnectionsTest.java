package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

class ContainerConnectionsTest {

  @Test
  void tomcatAndWhatIsBuiltOnItCloseTheConnectionAfterA503() {
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat/10.1.59", null)).isTrue();
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat/11.0.27", null)).isTrue();
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat (TomEE)/10.0.0", null)).isTrue();
  }

  /** A Tomcat whose server info an administrator replaced is still Tomcat. */
  @Test
  void aTomcatThatHidesItsNameIsKnownByItsContext() {
    assertThat(
            ContainerConnections.closedAfter503(
                "Web Server", "org.apache.catalina.core.ApplicationContextFacade"))
        .isTrue();
  }

  @Test
  void otherContainersKeepIt() {
    assertThat(
            ContainerConnections.closedAfter503(
                "jetty/12.0.25",
                "org.eclipse.jetty.ee10.servlet.ServletContextHandler$ServletContextApi"))
        .isFalse();
    assertThat(ContainerConnections.closedAfter503("Undertow - 2.3.18.Final", null)).isFalse();
    assertThat(ContainerConnections.closedAfter503(null, null)).isFalse();
  }

  /** README says 503: the start line says when the filter answers 429 instead, and why. */
  @Test
  void theStartLineSaysWhenRefusalsAre429() {
    assertThat(noticeFor(Map.of(), true)).contains("429").contains("rejectionStatus");
    assertThat(noticeFor(Map.of(), false)).isEmpty();
    assertThat(noticeFor(Map.of("rejectionStatus", "429"), true)).as("the user chose it").isEmpty();
  }

  private static String noticeFor(Map<String, String> keys, boolean closesConnectionAfter503) {
    OverloadRuntime runtime =
        OverloadRuntime.builder(OverloadConfig.of(keys))
            .closesConnectionAfter503(closesConnectionAfter503)
            .start();
    try {
      return RunningFilter.refusalNotice(runtime);
    } finally {
      runtime.close();
    }
  }
}
