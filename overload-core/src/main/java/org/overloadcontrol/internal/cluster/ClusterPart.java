package org.overloadcontrol.internal.cluster;

import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.NodeReport;

/**
 * A part of the engine whose state is shared across the cluster (the virtual queue, the
 * bandwidth shaper): at every exchange it adds its state to this node's report and takes in the
 * other nodes'.
 */
public interface ClusterPart {

  /** Adds this part's state at {@code nowSecond} to {@code report}. */
  void report(NodeReport.Builder report, long nowSecond);

  /** Takes in the other nodes' state as this node last received it. */
  void apply(ClusterView view, long nowSecond);

  /**
   * Told once, before the first exchange, how many members the cluster expects (this node
   * included): until a part has heard another node it may not know that it is one of several.
   */
  default void expectNodes(int expectedNodes) {}
}
