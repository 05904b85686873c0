package org.overloadcontrol.internal.classify;

/**
 * The parts of a request that classification rules may look at, free of any container type:
 * each adapter (servlet filter, Jetty handler) supplies a view of its own request.
 */
public interface RequestAttributes {

  /** The HTTP method, upper case. */
  String method();

  /** The path within the application (without context path and query), starting with "/". */
  String path();

  /** The first value of a request header, or null. */
  String header(String name);

  /** The value of a cookie, or null. */
  String cookie(String name);

  /** The client's address as resolved through trusted proxies (a literal), or null. */
  String clientAddress();
}
