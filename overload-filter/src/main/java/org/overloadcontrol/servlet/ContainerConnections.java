package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;

/**
 * Whether the container keeps a client's connection open after a refusal, read from its server info
 * ({@code ServletContext.getServerInfo()}) or its servlet context's class. Tomcat (10.1 and 11, and
 * so Spring Boot's default server and TomEE) closes the connection after every response whose
 * status is 503 (among 400, 408, 411, 413, 414, 500 and 501), whatever its headers say; Jetty keeps
 * it.
 *
 * <p>Why it matters. A client that re-sends a refused request at once (as {@code ab}, {@code wrk}
 * and many retry loops do) then opens a new connection for each attempt, with a TLS handshake where
 * there is TLS. In the workload matrix a thread-bound WAR on Tomcat at three times its capacity,
 * answered 503, served none of its requests within the target in eight runs of nine under such
 * clients, its clients waiting seconds for connections, and did not recover after the storm in any
 * of three; answered 429 with the same {@code Retry-After}, which Tomcat does not close on, it
 * recovered in every run, and with clients that honour {@code Retry-After} served 0.98–1.00 of its
 * capacity within the target where the 503 served 0.00–0.20 (docs/results.md, "Tomcat answers
 * 429"). So the {@code rejectionStatus} key's default, {@code auto}, answers 429 there.
 */
final class ContainerConnections {

  private ContainerConnections() {}

  /**
   * Whether the container of {@code context} closes the connection after a 503: Tomcat, by its
   * server info or, where an administrator has hidden that (a common hardening step), by its
   * servlet context's class.
   */
  static boolean closedAfter503(ServletContext context) {
    return closedAfter503(context.getServerInfo(), context.getClass().getName());
  }

  /** As {@link #closedAfter503(ServletContext)}, from the server info and the context's class. */
  static boolean closedAfter503(String serverInfo, String contextClass) {
    return serverInfo != null && serverInfo.startsWith("Apache Tomcat")
        || contextClass != null && contextClass.startsWith("org.apache.catalina.");
  }
}
