package org.overloadcontrol.it.support;

/** The embedded containers a web application can be deployed into. */
public enum ContainerKind {

  /** Eclipse Jetty 12, ee10 environment ({@code WebAppContext}). */
  JETTY {
    @Override
    public WebContainer start(Deployment deployment) throws Exception {
      return JettyContainer.start(deployment);
    }
  },

  /** Apache Tomcat 10.1 ({@code Tomcat.addWebapp}). */
  TOMCAT {
    @Override
    public WebContainer start(Deployment deployment) throws Exception {
      return TomcatContainer.start(deployment);
    }
  };

  /**
   * Deploys a web application and starts the container; returns once it serves requests.
   *
   * @throws IllegalStateException if the application failed to start (e.g. a filter's init
   *     threw): a container that would answer 404 or 503 to everything is no use to a test
   */
  public abstract WebContainer start(Deployment deployment) throws Exception;

  /**
   * The status of the filter's refusals here under the default {@code rejectionStatus: auto}:
   * 429 in Tomcat, which closes the connection after every 503, else 503.
   */
  public int refusalStatus() {
    return this == TOMCAT ? 429 : 503;
  }
}
