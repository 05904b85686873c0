package org.overloadcontrol.internal.pipeline;

import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * The keys a reload refuses to change, each with the reason an operator reads in the refusal:
 * what they configure is set up once at start and is either shared beyond this node or named
 * outside the library, so changing it under running requests would break something the reload
 * cannot see. Everything else (targets, classes, endpoints, controllers, queues, degradation,
 * bandwidth, the virtual queue's paths and capacity, bypass paths, sessions) changes at run time.
 */
final class RestartOnlyKeys {

  private RestartOnlyKeys() {}

  /** A key or prefix that cannot change, and why. */
  private record Rule(String prefix, String why) {}

  private static final Rule[] ALWAYS = {
    new Rule(
        "cluster",
        "the node joins its cluster and the shared waiting room at start; restart the nodes"),
    new Rule(
        "metrics",
        "metric names and bindings are registered once; renaming them under a running"
            + " dashboard or alert would break it; restart to change them"),
    new Rule("status", "the status page's access is set when it starts; restart to change it"),
    new Rule(
        "virtualQueue.keyFile",
        "the token key ring is not reloaded: rotate keys by adding one to the key file, current"
            + " first, and restart, so that tokens already issued still verify"),
    new Rule(
        "virtualQueue.keyEnv",
        "the token key ring is not reloaded: rotate keys by their own mechanism and restart"),
    new Rule(
        "sessions.keyFile",
        "the session key ring is not reloaded: rotate keys by adding one to the key file,"
            + " current first, and restart, so that session cookies already issued still verify"),
    new Rule(
        "sessions.keyEnv",
        "the session key ring is not reloaded: rotate keys by their own mechanism and restart"),
    new Rule(
        "rejectionHandler", "the adapter creates its rejection handler once at start; restart"),
    new Rule(
        "enabled", "whether the adapter acts at all is decided at start; restart to change it"),
  };

  /** What the nodes of a cluster share and must change together. */
  private static final Rule[] CLUSTERED = {
    new Rule(
        "virtualQueue",
        "in a cluster the virtual queue is shared with the other nodes, which must change"
            + " together: restart the nodes"),
    new Rule(
        "bandwidth",
        "in a cluster the bandwidth shares are measured with the other nodes, which must change"
            + " together: restart the nodes"),
  };

  /**
   * Whether a running filter or handler takes a new value of {@code key} (a full key as a user
   * writes it, placeholders allowed): "yes", "no", or "alone" when only a node outside a
   * cluster does. The reference page's column is this, so it says what a reload does.
   */
  static String runTimeChange(String key) {
    if (covered(ALWAYS, key)) {
      return "no";
    }
    return covered(CLUSTERED, key) ? "alone" : "yes";
  }

  private static boolean covered(Rule[] rules, String key) {
    for (Rule rule : rules) {
      if (key.equals(rule.prefix()) || key.startsWith(rule.prefix() + ".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a change to a key that cannot change at run time.
   *
   * @throws OverloadConfigException naming the first such key, its new value, the layer it came
   *     from (or went from) and why
   */
  static void require(Settings running, OverloadConfig next, ConfigChanges changes) {
    check(ALWAYS, running.config(), next, changes);
    if (running.cluster().enabled()) {
      check(CLUSTERED, running.config(), next, changes);
    }
  }

  private static void check(
      Rule[] rules, OverloadConfig running, OverloadConfig next, ConfigChanges changes) {
    for (Rule rule : rules) {
      String key = changes.firstUnder(rule.prefix());
      if (key != null) {
        String origin = next.origin(key) != null ? next.origin(key) : running.origin(key);
        throw OverloadConfigException.of(
            key, changes.newValue(key), origin, "cannot change at run time: " + rule.why());
      }
    }
  }
}
