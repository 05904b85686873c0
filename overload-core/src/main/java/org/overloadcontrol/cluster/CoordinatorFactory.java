package org.overloadcontrol.cluster;

/**
 * How a coordinator module plugs in: found with {@link java.util.ServiceLoader} when
 * {@code cluster.enabled} is true (the Hazelcast module registers one), so the engine never
 * depends on a distributed system it does not use.
 */
public interface CoordinatorFactory {

  /**
   * Joins the cluster described by {@code settings}.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException when the settings cannot work
   */
  ClusterCoordinator join(ClusterSettings settings);

  /**
   * The coordinator for {@code settings}: {@link ClusterCoordinator#STANDALONE} unless
   * {@code cluster.enabled}, else the one factory on the class path.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException when cluster mode is on but no
   *     coordinator module is on the class path
   */
  static ClusterCoordinator forSettings(ClusterSettings settings, ClassLoader loader) {
    if (!settings.enabled()) {
      return ClusterCoordinator.STANDALONE;
    }
    for (CoordinatorFactory f : java.util.ServiceLoader.load(CoordinatorFactory.class, loader)) {
      return f.join(settings);
    }
    throw org.overloadcontrol.config.OverloadConfigException.of(
        "cluster.enabled",
        "true",
        null,
        "no cluster coordinator on the class path: add overload-cluster-hazelcast");
  }
}
