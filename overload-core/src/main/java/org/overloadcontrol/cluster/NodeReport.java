package org.overloadcontrol.cluster;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one node tells the others at every exchange (four times a second): the state WebQ's distributed TokenGen
 * (Suresh et al., §III-B) and Li &amp; Jamin's farm-wide shares (§V) need from every replica.
 *
 * @param node the node's id, unique in the cluster
 * @param second the Unix second the report was made in
 * @param load L_i of equation 1: subunits of new arrivals (no token) in Unix second
 *     {@code second − 1}, the last whole second
 * @param loadBefore the same for second {@code second − 2}, so that a node whose peers have not
 *     yet reported for this second compares loads of one and the same second
 * @param capacityEstimate this node's capacity estimate in subunits per second, or NaN when
 *     the capacity is configured for the whole cluster
 * @param fraction the part of the cluster capacity this node holds now, S_i / C (NaN when it
 *     has no virtual queue): the others take no more than what the members leave
 * @param scheduledFrom the Unix second of {@code scheduled[0]}
 * @param scheduled N_i of equation 2: the subunits this node has promised for each second from
 *     {@code scheduledFrom} on
 * @param groups the bandwidth groups' state on this node, by group name
 * @param leaving whether this is the node's last report before it leaves cleanly: its
 *     promises still stand, but its share is the others' to take at once
 * @param format the shape of the report, {@link #FORMAT} in this version; a report of another
 *     format cannot be read (see {@link #FORMAT})
 */
public record NodeReport(
    String node,
    long second,
    double load,
    double loadBefore,
    double capacityEstimate,
    double fraction,
    long scheduledFrom,
    double[] scheduled,
    Map<String, Group> groups,
    boolean leaving,
    int format)
    implements Serializable {

  /**
   * The shape of this version's report, raised whenever a field is added, removed or changes
   * meaning. A record's serialVersionUID is not compared when it is read (Java Object
   * Serialization Specification §1.13), and a field missing from the stream reads as 0: read as
   * this version, a report of the version before {@code fraction} (which wrote no format, so
   * format 0) would say its member holds no part of C, and this node would take that member's
   * room. A report of another format is therefore refused when it is read, and the coordinator
   * says so and counts without that member until all members run one version. An older member
   * reading this version's report ignores the fields it does not know, as it always did.
   */
  public static final int FORMAT = 2; // 2: the fraction of C held, each group's part, this number

  private static final long serialVersionUID = 2L;

  /**
   * One bandwidth group on one node (Li &amp; Jamin §V.B).
   *
   * @param bytesPerSecond b̂, the group's measured bandwidth here
   * @param arrivals the group's requests here per exchange, averaged
   * @param active whether the group had a request here since the previous report
   * @param part the part of the group's farm-wide available bandwidth this node paces it to
   *     now, or NaN before the node has computed one: the others take no more than what the
   *     nodes leave
   */
  public record Group(double bytesPerSecond, double arrivals, boolean active, double part)
      implements Serializable {
    private static final long serialVersionUID = 2L;
  }

  public NodeReport {
    Objects.requireNonNull(node, "node");
    if (format != FORMAT) {
      // Also where a report is read from another member: the reader gets an
      // InvalidObjectException with this message.
      throw new IllegalArgumentException(
          "node "
              + node
              + " sent a cluster report of format "
              + format
              + ", this version of overload-control reads format "
              + FORMAT
              + ": run one version on all members");
    }
    scheduled = scheduled.clone();
    groups = Map.copyOf(groups);
  }

  /** The subunits this node promised for Unix second {@code s} (0 outside its array). */
  public double scheduledAt(long s) {
    long i = s - scheduledFrom;
    return i < 0 || i >= scheduled.length ? 0 : scheduled[(int) i];
  }

  @Override
  public double[] scheduled() {
    return scheduled.clone();
  }

  /** A report being filled in by the parts that have something to share. */
  public static final class Builder {
    private final String node;
    private final long second;
    private double load;
    private double loadBefore;
    private double capacityEstimate = Double.NaN;
    private double fraction = Double.NaN;
    private long scheduledFrom;
    private double[] scheduled = new double[0];
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private boolean leaving;

    public Builder(String node, long second) {
      this.node = node;
      this.second = second;
    }

    /**
     * The virtual queue's part: L_i of the last two whole seconds, its capacity estimate (NaN
     * if configured), the part of C it holds, N_i.
     */
    public Builder queue(
        double load,
        double loadBefore,
        double capacityEstimate,
        double fraction,
        long scheduledFrom,
        double[] scheduled) {
      this.load = load;
      this.loadBefore = loadBefore;
      this.capacityEstimate = capacityEstimate;
      this.fraction = fraction;
      this.scheduledFrom = scheduledFrom;
      this.scheduled = scheduled;
      return this;
    }

    /** One bandwidth group's part. */
    public Builder group(String name, Group state) {
      groups.put(name, state);
      return this;
    }

    /** Marks the report as the node's last. */
    public Builder leaving() {
      this.leaving = true;
      return this;
    }

    public NodeReport build() {
      return new NodeReport(
          node,
          second,
          load,
          loadBefore,
          capacityEstimate,
          fraction,
          scheduledFrom,
          scheduled,
          groups,
          leaving,
          FORMAT);
    }
  }
}
