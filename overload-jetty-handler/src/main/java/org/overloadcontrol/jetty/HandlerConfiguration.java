package org.overloadcontrol.jetty;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.internal.pipeline.ConfigLayers;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;
import org.overloadcontrol.internal.pipeline.Settings;

/**
 * Reads the Jetty handler's configuration, the counterpart of the filter's
 * {@code FilterConfiguration}: the keys given in Java or Jetty XML, the YAML file, the
 * operator's file, validated as one model ({@link Settings}) with the filter's strictness.
 */
final class HandlerConfiguration {

  private HandlerConfiguration() {}

  /**
   * Parses and validates the configuration as {@link #doStart} will: the keys given in Java or
   * XML, then the YAML file, then the operator's file ({@value OperatorConfigFile#PROPERTY}),
   * over the server's thread count as the default of {@code admission.maxLimit}.
   * Every feature's section is validated too, as the filter does; the virtual queue's keys
   * (file or environment variable) are read when the handler starts.
   *
   * @throws OverloadConfigException naming the key, value and origin of the first problem
   */
  static Settings parse(
      Map<String, String> settings,
      String configFile,
      String baseDirectory,
      String defaultEndpoint,
      int serverThreads) {
    String file = configFile != null ? configFile : settings.get("configFile");
    return ConfigLayers.builder()
        .keys(KeyLayer.of(OverloadHandler.SETTINGS_ORIGIN, settings))
        .file(file == null || file.isBlank() ? null : loadYaml(file.trim(), baseDirectory))
        .operatorFile()
        .containerThreads("the server's thread pool", serverThreads)
        .noRejectionHandler(
            "names a servlet RejectionHandler, which cannot answer Jetty core requests; to answer"
                + " refusals yourself, subclass OverloadHandler and override reject(...)")
        // Without servlets, requests reach the default endpoint or one a paths rule names.
        .knownEndpoints(List.of(defaultEndpoint))
        .read();
  }

  /** The configuration file's path, a relative one resolved against the base directory. */
  static Path resolve(String file, String baseDirectory) {
    Path path = Path.of(file);
    if (!path.isAbsolute() && baseDirectory != null) {
      path = Path.of(baseDirectory).resolve(path);
    }
    return path;
  }

  private static KeyLayer loadYaml(String file, String baseDirectory) {
    Path path = resolve(file, baseDirectory);
    return KeyLayer.yamlFile(path, "configFile", file, OverloadHandler.SETTINGS_ORIGIN);
  }
}
