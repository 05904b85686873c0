package org.overloadcontrol.cluster;

/** The cluster's answer to "has this virtual-queue token been used before?". */
public enum TokenClaim {
  /** Nobody in the cluster has used it: this use is the one. */
  FIRST,
  /** Another use of it was recorded, on this node or another. */
  REPLAYED,
  /** The cluster did not answer within the call bound: decide from local state. */
  UNKNOWN
}
