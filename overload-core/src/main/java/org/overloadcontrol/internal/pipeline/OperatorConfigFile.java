package org.overloadcontrol.internal.pipeline;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * The operator's YAML file, named by the system property {@value #PROPERTY}, which every adapter
 * layers last, over the application's own configuration: an operator can change settings (for
 * an experiment, an incident) without rebuilding the application.
 */
public final class OperatorConfigFile {

  /** System property naming an operator's YAML file layered over the application's. */
  public static final String PROPERTY = "overload.configFile";

  private OperatorConfigFile() {}

  /** The layer from the file {@value #PROPERTY} names, or null when the property is not set. */
  public static ConfigSource fromSystemProperty() {
    return load(System.getProperty(PROPERTY));
  }

  /**
   * The file {@value #PROPERTY} names, for a watch that reloads when it changes; null when the
   * property is not set.
   */
  public static Path path() {
    String path = System.getProperty(PROPERTY);
    return path == null || path.isBlank() ? null : Path.of(path.trim());
  }

  /**
   * The layer from {@code path}, or null when it is null or blank.
   *
   * @throws OverloadConfigException if there is no such file or it is not valid YAML
   * @throws UncheckedIOException if it cannot be read
   */
  public static ConfigSource load(String path) {
    if (path == null || path.isBlank()) {
      return null;
    }
    return YamlConfigLoader.loadFile(Path.of(path.trim()), PROPERTY, path, "system property");
  }
}
