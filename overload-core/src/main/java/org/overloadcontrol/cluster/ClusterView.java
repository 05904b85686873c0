package org.overloadcontrol.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The other nodes' latest reports as this node last received them, read on the request path
 * without a remote call.
 *
 * @param others the last report of every other node still a member (fresh or not), and the
 *     last reports of nodes that left cleanly while their promised slots are still to come
 * @param receivedSecond the Unix second this view was read from the cluster; a node cut off
 *     from the cluster keeps an old view, and its age says so
 */
public record ClusterView(List<NodeReport> others, long receivedSecond) {

  /** The view of a node that has heard from nobody. */
  public static final ClusterView EMPTY = new ClusterView(List.of(), Long.MIN_VALUE);

  /**
   * A report older than this many seconds is stale: its node missed two exchanges, which is no
   * longer a hiccup of the timer.
   */
  public static final int STALE_SECONDS = 3;

  public ClusterView {
    others = List.copyOf(others);
  }

  /** The members still in: every report but those of nodes that left cleanly. */
  public List<NodeReport> members() {
    List<NodeReport> out = new ArrayList<>(others.size());
    for (NodeReport r : others) {
      if (!r.leaving()) {
        out.add(r);
      }
    }
    return out;
  }

  /** The members' reports made within {@link #STALE_SECONDS} of {@code nowSecond}. */
  public List<NodeReport> fresh(long nowSecond) {
    List<NodeReport> out = new ArrayList<>(others.size());
    for (NodeReport r : members()) {
      if (r.second() >= nowSecond - STALE_SECONDS) {
        out.add(r);
      }
    }
    return out;
  }
}
