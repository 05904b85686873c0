package org.overloadcontrol.internal.classify;

import java.util.List;
import java.util.Objects;

/**
 * Maps request paths to an endpoint name from configuration, overriding the servlet name.
 *
 * @param endpoint the endpoint's name
 * @param paths the patterns; any one matching is enough
 */
public record EndpointRule(String endpoint, List<PathPattern> paths) {

  public EndpointRule {
    Objects.requireNonNull(endpoint, "endpoint");
    paths = List.copyOf(paths);
  }

  public boolean matches(String path) {
    for (PathPattern p : paths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }
}
