package org.overloadcontrol.internal.classify;

import java.util.Map;

/** A request for engine tests: fixed method, path, headers, cookies and client address. */
public record TestRequest(
    String method,
    String path,
    Map<String, String> headers,
    Map<String, String> cookies,
    String clientAddress)
    implements RequestAttributes {

  /** A GET of {@code path} from {@code clientAddress}, without headers or cookies. */
  public static TestRequest get(String path, String clientAddress) {
    return new TestRequest("GET", path, Map.of(), Map.of(), clientAddress);
  }

  /** This request with {@code headers}. */
  public TestRequest withHeaders(Map<String, String> newHeaders) {
    return new TestRequest(method, path, newHeaders, cookies, clientAddress);
  }

  @Override
  public String header(String name) {
    return headers.get(name);
  }

  @Override
  public String cookie(String name) {
    return cookies.get(name);
  }
}
