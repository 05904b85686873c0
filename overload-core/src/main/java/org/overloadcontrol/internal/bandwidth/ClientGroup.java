package org.overloadcontrol.internal.bandwidth;

import java.util.Objects;

/**
 * A client group that was sold a share of the total bandwidth: the paper's "client" i with its
 * allocated bandwidth b<sub>i</sub> (Li &amp; Jamin, Table I). A group at 0 % is refused
 * outright, as the paper's configuration allows (§IV).
 *
 * @param name the group's name in configuration
 * @param sharePercent the share of the total in percent, 0 to 100
 * @param allocatedBytesPerSecond b<sub>i</sub> = share × B
 * @param rule which requests belong to the group
 */
public record ClientGroup(
    String name, double sharePercent, double allocatedBytesPerSecond, GroupRule rule) {

  public ClientGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rule, "rule");
    if (!(sharePercent >= 0 && sharePercent <= 100)) {
      throw new IllegalArgumentException("share must be 0..100 %, not " + sharePercent);
    }
  }

  /** Whether the group is refused outright (a 0 % share). */
  public boolean isRejected() {
    return sharePercent == 0;
  }
}
