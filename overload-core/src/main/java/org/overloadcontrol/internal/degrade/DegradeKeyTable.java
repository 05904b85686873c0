package org.overloadcontrol.internal.degrade;

import static org.overloadcontrol.internal.config.Key.key;

import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The keys of {@link DegradeSettings} ({@code degrade.}), with their defaults and meanings:
 * each quality controller parameter per endpoint, and the same parameters directly under
 * {@code degrade.} as the defaults of every degradable endpoint.
 */
final class DegradeKeyTable {

  /** The parameters an endpoint may set, and that {@code degrade.} may default. */
  private static final List<Key<?>> PARAMETERS =
      List.of(
          key("minQuality", "number in [0, 1]", "0.2", "q_min (`@Degradable(minQuality)`)"),
          key(
              "mode",
              "`combined` or `alone`",
              "`combined`",
              "admission control takes over at q_min, or never"
                  + " (`@Degradable(withAdmissionControl)`)"),
          key(
              "decrease",
              "`multiplicative` or `additive`",
              "`multiplicative`",
              "q·(1 − step) or q − step"),
          key("step", "number in (0, 1)", "0.2", "the cut per period over target"),
          key("raiseStep", "number in (0, 1]", "0.05", "the rise per period under target"),
          key("raiseBelow", "number in (0, 1]", "0.9", "rise only when p90 < raiseBelow × target"),
          key("period", "duration", "1s", "control period (acted on at the next 100 ms tick)"));

  static final KeyTable TABLE = table();

  private static KeyTable table() {
    List<Key<?>> keys = new ArrayList<>();
    for (Key<?> p : PARAMETERS) {
      keys.add(key("endpoints.<e>." + p.name(), p.type(), p.defaultValue(), p.meaning()));
    }
    keys.add(
        key(
            "endpoints.<e>.target",
            "duration",
            "`endpoints.<e>.target`",
            "p90 target of the quality controller"));
    keys.add(
        key(
            "endpoints.<e>.enabled",
            "boolean",
            "true",
            "false switches an annotated endpoint off"));
    for (Key<?> p : PARAMETERS) {
      keys.add(
          key(
              p.name(),
              p.type(),
              p.defaultValue(),
              "default for every degradable endpoint: " + p.meaning()));
    }
    return new KeyTable("degrade", "Degradation (`degrade.`)", keys);
  }

  private DegradeKeyTable() {}
}
