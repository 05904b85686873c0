package org.overloadcontrol.config;

/**
 * Configuration that cannot be used: thrown when the filter or handler starts, with a message
 * that names the key, quotes the value, says where it came from and what is allowed.
 */
public final class OverloadConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;

  public OverloadConfigException(String key, String message) {
    super(message);
    this.key = key;
  }

  /** Builds the message "key 'k' = 'v' (from origin): problem; allowed: ...". */
  public static OverloadConfigException of(
      String key, String value, String origin, String problem) {
    StringBuilder sb =
        new StringBuilder("overload-control configuration: key '").append(key).append('\'');
    if (value != null) {
      sb.append(" = '").append(value).append('\'');
    }
    if (origin != null) {
      sb.append(" (from ").append(origin).append(')');
    }
    sb.append(": ").append(problem);
    return new OverloadConfigException(key, sb.toString());
  }

  /** The key at fault. */
  public String key() {
    return key;
  }
}
