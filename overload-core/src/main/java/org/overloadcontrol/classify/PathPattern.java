package org.overloadcontrol.classify;

import java.util.Objects;

/**
 * A path pattern in the syntax of servlet mappings, so users write what they already know:
 * an exact path ({@code /checkout}), a prefix ({@code /api/*}, which also matches
 * {@code /api}), an extension ({@code *.jpg}), or {@code /*} for everything.
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

  private PathPattern(String source, Type type, String value) {
    this.source = source;
    this.type = type;
    this.value = value;
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

  /** Whether {@code path} (within the application, starting with "/") matches. */
  public boolean matches(String path) {
    if (path == null) {
      return false;
    }
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

  @Override
  public String toString() {
    return source;
  }
}
