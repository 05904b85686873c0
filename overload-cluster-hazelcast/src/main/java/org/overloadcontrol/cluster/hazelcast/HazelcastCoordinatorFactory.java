package org.overloadcontrol.cluster.hazelcast;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.cluster.CoordinatorFactory;

/**
 * Cluster mode on Hazelcast: starts an embedded member from the {@code cluster.} settings and
 * shares the virtual queue's schedule, the used tokens and the bandwidth measurements through it
 * (WebQ, Suresh et al., §III-B; Li &amp; Jamin §V). Found by {@link java.util.ServiceLoader}
 * when this module is on the class path and {@code cluster.enabled} is true.
 */
public final class HazelcastCoordinatorFactory implements CoordinatorFactory {

  @Override
  public ClusterCoordinator join(ClusterSettings settings) {
    HazelcastInstance member = Hazelcast.newHazelcastInstance(MemberConfig.of(settings));
    return new HazelcastCoordinator(
        member, settings.callTimeout(), settings.forgetAfter(), settings.expectedNodes());
  }
}
