package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.catalina.util.ServerInfo;
import org.junit.jupiter.api.Test;

/**
 * {@link ApplicationListenerIT} on Tomcat 11 (issue 33, item 4): Tomcat 11 completes a resumed
 * request that calls {@code sendError} twice for an application's listener, as 10.1 does, with
 * or without the filter; the inherited tests pin it.
 */
class Tomcat11ApplicationListenerIT extends ApplicationListenerIT {

  @Test
  void theTomcatOnTheClassPathIs11() {
    assertThat(ServerInfo.getServerNumber()).startsWith("11.");
  }
}
