package org.overloadcontrol.cluster;

import java.time.Duration;

/**
 * Where the state that must be one for all replicas lives (WebQ, Suresh et al., §III-B; Li
 * &amp; Jamin §V): every node's report (incoming load, promised slots, capacity estimate,
 * bandwidth groups' rates and active flags) and the set of used virtual-queue tokens. Admission
 * control and the wait queues stay per node: they protect that node.
 *
 * <p>Contract for implementations: {@link #publish} and {@link #view} never wait on the
 * network (an implementation ships and fetches reports on its own thread); {@link #claim} may
 * ask the cluster but returns {@link TokenClaim#UNKNOWN} once its configured bound has passed.
 * A request thread therefore never waits longer than that bound.
 *
 * <p>{@link #STANDALONE} is the default: one node, nothing shared, nothing to configure.
 */
public interface ClusterCoordinator extends AutoCloseable {

  /** One node alone: no other reports, every token claim is left to the node's own set. */
  ClusterCoordinator STANDALONE =
      new ClusterCoordinator() {
        @Override
        public String node() {
          return "standalone";
        }

        @Override
        public void publish(NodeReport report) {}

        @Override
        public ClusterView view() {
          return ClusterView.EMPTY;
        }

        @Override
        public TokenClaim claim(String tokenKey, Duration keepFor, boolean keepIfLate) {
          return TokenClaim.FIRST;
        }

        @Override
        public int expectedNodes() {
          return 1;
        }

        @Override
        public void close() {}
      };

  /** This node's id, unique in the cluster. */
  String node();

  /** Hands this node's report to the cluster; never waits on the network. */
  void publish(NodeReport report);

  /** The other members' latest reports as last received; never waits on the network. */
  ClusterView view();

  /**
   * Starts reading the other members' latest reports, which {@link #view} returns once they are
   * read; never waits on the network. {@link #publish} reads them too, but right after writing
   * this node's report, when the others' reports of the same moment may not have landed yet.
   * Nothing to do where {@link #view} is always current.
   */
  default void fetch() {}

  /**
   * Records a use of the token with key {@code tokenKey}, remembered for {@code keepFor}
   * (after which the token has expired anyway); atomic cluster-wide, so of two uses on two
   * nodes exactly one gets {@link TokenClaim#FIRST}.
   *
   * <p>A claim answered {@link TokenClaim#UNKNOWN} may still reach the cluster later. With
   * {@code keepIfLate} the mark it then sets stands: the caller admitted the use anyway. Without
   * it the caller refused the request and told the client to retry, so a late mark that this
   * claim set is taken back as soon as its answer arrives; otherwise the retry would be refused
   * as a replay of a token that never admitted anyone.
   */
  TokenClaim claim(String tokenKey, Duration keepFor, boolean keepIfLate);

  /** How many nodes the cluster is configured for (a node's share before it hears the rest). */
  int expectedNodes();

  /** Leaves the cluster: the others stop counting this node's share at once. */
  @Override
  void close();
}
