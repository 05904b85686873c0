package org.overloadcontrol.internal.pipeline;

import java.io.InputStream;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.OptionalLibrary;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The one class that touches SnakeYAML, so that the rest of the configuration loads without it
 * (see {@link OptionalLibrary}).
 */
final class SnakeYaml {

  private SnakeYaml() {}

  /** The document in {@code in}, as plain maps, lists and scalars. */
  static Object parse(InputStream in, String name) {
    try {
      return new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    } catch (YAMLException e) {
      throw new OverloadConfigException(
          name,
          "overload-control configuration: " + name + " is not valid YAML: " + e.getMessage());
    }
  }
}
