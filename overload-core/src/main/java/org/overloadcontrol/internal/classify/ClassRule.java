package org.overloadcontrol.internal.classify;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.overloadcontrol.internal.base.ClassDefinition;

/**
 * A configuration rule that puts matching requests into a class: "based on IP address, request
 * header information, or HTTP cookies" (Welsh &amp; Culler 2003, §3.3), and on path and method.
 *
 * <p>All conditions that are set must hold (AND); within one condition any listed value may
 * match (OR). A header or cookie condition is a name ({@code X-Tier}: present) or a name and a
 * value ({@code X-Tier=gold}: equal).
 */
public final class ClassRule {

  private final ClassDefinition requestClass;
  private final List<PathPattern> paths;
  private final Set<String> methods;
  private final NameValue header;
  private final NameValue cookie;
  private final AddressMatcher clients;

  /** A {@code name} or {@code name=value} condition. */
  public record NameValue(String name, String value) {

    public NameValue {
      Objects.requireNonNull(name, "name");
    }

    /** Parses {@code Name} or {@code Name=value}. */
    public static NameValue parse(String text) {
      int eq = text.indexOf('=');
      String name = (eq < 0 ? text : text.substring(0, eq)).trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("'" + text + "' must be Name or Name=value");
      }
      return new NameValue(name, eq < 0 ? null : text.substring(eq + 1).trim());
    }

    boolean matches(String actual) {
      return actual != null && (value == null || value.equals(actual));
    }
  }

  public ClassRule(
      ClassDefinition requestClass,
      List<PathPattern> paths,
      Set<String> methods,
      NameValue header,
      NameValue cookie,
      AddressMatcher clients) {
    this.requestClass = Objects.requireNonNull(requestClass, "requestClass");
    this.paths = List.copyOf(paths);
    this.methods =
        methods.stream()
            .map(m -> m.toUpperCase(Locale.ROOT))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    this.header = header;
    this.cookie = cookie;
    this.clients = Objects.requireNonNull(clients, "clients");
  }

  public ClassDefinition requestClass() {
    return requestClass;
  }

  /** Whether every condition set in this rule holds for the request. */
  public boolean matches(RequestAttributes request) {
    if (!paths.isEmpty() && paths.stream().noneMatch(p -> p.matches(request.path()))) {
      return false;
    }
    if (!methods.isEmpty() && !methods.contains(request.method())) {
      return false;
    }
    if (header != null && !header.matches(request.header(header.name()))) {
      return false;
    }
    if (cookie != null && !cookie.matches(request.cookie(cookie.name()))) {
      return false;
    }
    return clients.isEmpty() || clients.matches(request.clientAddress());
  }

  @Override
  public String toString() {
    return "ClassRule{"
        + requestClass.name()
        + ": paths="
        + paths
        + ", methods="
        + methods
        + ", header="
        + header
        + ", cookie="
        + cookie
        + ", clients="
        + clients
        + "}";
  }
}
