package org.overloadcontrol.internal.config;

import org.overloadcontrol.config.OverloadConfigException;

/**
 * A library the core uses for one feature only and so does not bring along: SnakeYAML for a YAML
 * configuration file, Apache Commons Math for {@code virtualQueue.capacity: auto}. The feature
 * checks for it when it is configured and, when the application has not added it, stops the
 * start with a message naming the key and the Maven coordinates to add, rather than failing
 * later with a {@code NoClassDefFoundError}.
 *
 * @param className a class of the library
 * @param coordinates the Maven coordinates to add, {@code groupId:artifactId}
 */
public record OptionalLibrary(String className, String coordinates) {

  /** SnakeYAML, for YAML configuration files. */
  public static final OptionalLibrary SNAKEYAML =
      new OptionalLibrary("org.yaml.snakeyaml.Yaml", "org.yaml:snakeyaml");

  /** Apache Commons Math, for the passive capacity estimator. */
  public static final OptionalLibrary COMMONS_MATH =
      new OptionalLibrary(
          "org.apache.commons.math3.optim.nonlinear.scalar.noderiv.CMAESOptimizer",
          "org.apache.commons:commons-math3");

  /** Whether the library is on the class path of the core. */
  public boolean present() {
    try {
      Class.forName(className, false, OptionalLibrary.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Returns normally when the library is present.
   *
   * @param key the configuration key (or file) that needs it, for the message
   * @param feature what needs it, e.g. "a YAML configuration file"
   * @throws OverloadConfigException when it is absent
   */
  public void require(String key, String feature) {
    if (!present()) {
      throw new OverloadConfigException(
          key,
          "overload-control configuration: "
              + feature
              + " ("
              + key
              + ") needs "
              + coordinates
              + " on the class path; add it to the"
              + " application's dependencies");
    }
  }
}
