package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.classify.EndpointRule;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * Refuses configuration for an endpoint that does not exist: {@code endpoints.slwo.target}
 * for an endpoint named {@code slow} would otherwise be accepted and never applied. An endpoint
 * exists when the adapter knows it (a servlet's name or {@code @Endpoint}, the Jetty handler's
 * default endpoint) or a {@code endpoints.<e>.paths} rule routes requests to it. The error names
 * the key and the closest known name.
 */
final class KnownEndpoints {

  private static final List<String> PREFIXES =
      List.of("endpoints.", "queue.endpoints.", "degrade.endpoints.");

  private KnownEndpoints() {}

  /**
   * @param layers the configuration as given, lowest precedence first: for the key to quote
   * @param known the endpoints the adapter routes requests to by itself
   * @throws OverloadConfigException naming the first key of an unknown endpoint
   */
  static void require(Settings settings, List<ConfigSource> layers, Collection<String> known) {
    Set<String> exist = new TreeSet<>(known);
    for (EndpointRule rule : settings.config().endpointRules()) {
      exist.add(rule.endpoint());
    }
    List<String> named = new ArrayList<>(settings.config().endpoints().keySet());
    named.addAll(settings.queue().endpoints().keySet());
    named.addAll(settings.degrade().endpoints().keySet());
    for (String name : named) {
      if (!exist.contains(name)) {
        throw unknown(name, layers, exist);
      }
    }
  }

  private static OverloadConfigException unknown(
      String name, List<ConfigSource> layers, Set<String> exist) {
    String closest = closest(name, exist);
    String problem =
        "no servlet, @Endpoint or endpoints.<e>.paths rule names an endpoint '"
            + name
            + "'"
            + (closest != null
                ? "; did you mean '" + closest + "'?"
                : exist.isEmpty() ? "" : "; known endpoints: " + String.join(", ", exist));
    for (int i = layers.size() - 1; i >= 0; i--) {
      ConfigSource layer = layers.get(i);
      for (String key : layer.values().keySet()) {
        for (String prefix : PREFIXES) {
          if (key.startsWith(prefix + name + ".")) {
            return OverloadConfigException.of(
                key, layer.values().get(key), layer.origin(key), problem);
          }
        }
      }
    }
    return OverloadConfigException.of("endpoints." + name, null, null, problem);
  }

  /** The known name nearest in edits, if it is near enough to be a typo (a third of it). */
  static String closest(String name, Collection<String> exist) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : exist) {
      int d = distance(name, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(1, name.length() / 3) ? best : null;
  }

  /**
   * Edit distance with adjacent transpositions (optimal string alignment), so {@code slwo} is
   * one edit from {@code slow}. Written here rather than adding two libraries to every WAR for
   * twenty lines that run once, at start.
   */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
