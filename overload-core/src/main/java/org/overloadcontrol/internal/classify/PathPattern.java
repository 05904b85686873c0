package org.overloadcontrol.internal.classify;

import java.util.List;
import java.util.Objects;

/**
 * A path pattern in the syntax of servlet mappings, so users write what they already know:
 * an exact path ({@code /checkout}), a prefix ({@code /api/*}, which also matches
 * {@code /api}), an extension ({@code *.jpg}), or {@code /*} for everything.
 *
 * <p>Forms of a path: the adapters hand over the path as the container resolved it (servlet
 * path and path info; Jetty's path in context), and a container hands one servlet several
 * forms of one path. Measured in Jetty 12 and Tomcat 10.1 ({@code PathVariantsIT}): a servlet
 * on {@code /checkout/*} gets {@code /checkout/} for {@code /checkout/}, {@code /checkout/.},
 * {@code /checkout;x/} and (Tomcat, which merges slashes) {@code /checkout//}; Jetty hands
 * {@code /a;x/../checkout} over as {@code /a/../checkout}. A feature that protects a path
 * (virtual queue, endpoint and class rules, bandwidth paths) therefore matches a path when it
 * or its {@link #canonical} form matches ({@link #matches}): covering a form too many is safe.
 * A bypass, which takes control away, matches only when both do ({@link #matchesEveryForm}),
 * so {@code /health/*} does not let {@code /health/../checkout} through, nor {@code /healthz}
 * a {@code /healthz/} that another servlet may serve.
 */
public final class PathPattern {

  private enum Type {
    EXACT,
    PREFIX,
    EXTENSION,
    ALL
  }

  private final String source;
  private final Type type;
  private final String value;

  /** The canonical form of an exact path or prefix, so {@code /checkout/} covers {@code /checkout}. */
  private final String canonicalValue;

  private PathPattern(String source, Type type, String value) {
    this.source = source;
    this.type = type;
    this.value = value;
    this.canonicalValue =
        type == Type.EXACT || type == Type.PREFIX && !value.isEmpty() ? canonical(value) : value;
  }

  /**
   * Parses a pattern.
   *
   * @throws IllegalArgumentException naming the pattern and the allowed forms
   */
  public static PathPattern parse(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    String p = pattern.trim();
    if (p.equals("/*")) {
      return new PathPattern(p, Type.ALL, "");
    }
    if (p.startsWith("*.") && p.length() > 2 && p.indexOf('/') < 0 && p.indexOf('*', 1) < 0) {
      return new PathPattern(p, Type.EXTENSION, p.substring(1));
    }
    if (p.startsWith("/") && p.indexOf('*') < 0) {
      return new PathPattern(p, Type.EXACT, p);
    }
    if (p.startsWith("/") && p.endsWith("/*") && p.indexOf('*') == p.length() - 1) {
      return new PathPattern(p, Type.PREFIX, p.substring(0, p.length() - 2));
    }
    throw new IllegalArgumentException(
        "'"
            + pattern
            + "' is not a path pattern; use an exact"
            + " path (/checkout), a prefix (/api/*), an extension (*.jpg) or /*");
  }

  /**
   * Whether {@code path} (within the application, starting with "/") or its canonical form
   * matches: for a feature that protects what it matches.
   */
  public boolean matches(String path) {
    if (path == null) {
      return false;
    }
    if (matchesAsIs(path, value)) {
      return true;
    }
    String canonical = canonical(path);
    return (canonical != path || canonicalValue != value) && matchesAsIs(canonical, canonicalValue);
  }

  /**
   * Whether {@code path} and its canonical form both match: for a bypass, which must not
   * reach a form that a container may hand to another servlet.
   */
  public boolean matchesEveryForm(String path) {
    if (path == null || !matchesAsIs(path, value)) {
      return false;
    }
    String canonical = canonical(path);
    return canonical == path || matchesAsIs(canonical, canonicalValue);
  }

  private boolean matchesAsIs(String path, String value) {
    return switch (type) {
      case ALL -> true;
      case EXACT -> path.equals(value);
      case PREFIX ->
          path.equals(value)
              || (path.startsWith(value)
                  && path.length() > value.length()
                  && path.charAt(value.length()) == '/');
      case EXTENSION ->
          path.endsWith(value) && path.lastIndexOf('/') < path.length() - value.length();
    };
  }

  /**
   * The canonical form of a decoded path: path parameters ({@code ;x}) cut from every segment,
   * empty and {@code .} segments dropped, {@code ..} applied, no trailing slash ({@code /} for
   * the root). A path already in that form is returned as the same instance, after one scan
   * and no allocation: the common case, on every request.
   */
  public static String canonical(String path) {
    int n = path.length();
    boolean plain = n == 0 || path.charAt(0) == '/';
    for (int i = 0; i < n && plain; i++) {
      char c = path.charAt(i);
      if (c == ';'
          || c == '/' && (i + 1 == n ? n > 1 : path.charAt(i + 1) == '/')
          || c == '.' && path.charAt(i - 1) == '/' && dotSegment(path, i)) {
        plain = false;
      }
    }
    if (plain) {
      return path;
    }
    java.util.ArrayDeque<String> segments = new java.util.ArrayDeque<>();
    for (String segment : path.split("/")) {
      int semicolon = segment.indexOf(';');
      String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
      if (name.isEmpty() || name.equals(".")) {
        continue;
      }
      if (name.equals("..")) {
        segments.pollLast();
      } else {
        segments.addLast(name);
      }
    }
    return segments.isEmpty() ? "/" : "/" + String.join("/", segments);
  }

  /** Whether the segment starting at {@code i} (after a slash) is {@code .} or {@code ..}. */
  private static boolean dotSegment(String path, int i) {
    int end = path.indexOf('/', i);
    int length = (end < 0 ? path.length() : end) - i;
    return length == 1 || length == 2 && path.charAt(i + 1) == '.';
  }

  /**
   * Whether some path of a given shape could match: the shape is a framework route's template
   * as whole segments, each a literal or null for any one non-empty segment, and {@code more}
   * says that any further segments (or none) may follow. False only when no such path can match,
   * so that a route's requests can skip the bypass check (docs/performance.md, "Framework
   * routing").
   */
  public boolean mayMatch(List<String> segments, boolean more) {
    return switch (type) {
      case ALL -> true;
      case EXACT -> mayStartWith(segments, more, false);
      case PREFIX -> mayStartWith(segments, more, true);
      case EXTENSION -> {
        String last = segments.isEmpty() ? "" : segments.get(segments.size() - 1);
        yield more || last == null || last.endsWith(value);
      }
    };
  }

  /** For an exact path or a prefix: whether the shape's paths may be it, or (prefix) below it. */
  private boolean mayStartWith(List<String> segments, boolean more, boolean below) {
    String[] own = value.substring(1).split("/", -1);
    if (value.equals("/")) {
      own = new String[0];
    }
    if (List.of(own).contains("")) {
      return true; // an empty segment or a trailing slash: not worth reasoning about
    }
    int shared = Math.min(own.length, segments.size());
    for (int i = 0; i < shared; i++) {
      String segment = segments.get(i);
      if (segment != null && !segment.equals(own[i])) {
        return false;
      }
    }
    if (segments.size() < own.length) {
      return more;
    }
    return below || segments.size() == own.length;
  }

  @Override
  public String toString() {
    return source;
  }
}
