package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContainerConnectionsTest {

  @Test
  void tomcatAndWhatIsBuiltOnItCloseTheConnectionAfterA503() {
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat/10.1.59")).isTrue();
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat/11.0.27")).isTrue();
    assertThat(ContainerConnections.closedAfter503("Apache Tomcat (TomEE)/10.0.0")).isTrue();
  }

  @Test
  void otherContainersKeepIt() {
    assertThat(ContainerConnections.closedAfter503("jetty/12.0.25")).isFalse();
    assertThat(ContainerConnections.closedAfter503("Undertow - 2.3.18.Final")).isFalse();
    assertThat(ContainerConnections.closedAfter503(null)).isFalse();
  }
}
