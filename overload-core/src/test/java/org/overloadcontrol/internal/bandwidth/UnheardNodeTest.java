package org.overloadcontrol.internal.bandwidth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.cluster.ClusterExchange;
import org.overloadcontrol.internal.cluster.InMemoryCluster;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A node of a cluster paces a group to its 1/n part of the farm's d_i until it has heard the
 * other nodes: before, each of n nodes paced at the whole farm's rate until its first exchange.
 */
class UnheardNodeTest {

  static final long SIZE = 10_000;

  final FakeTicker ticker = new FakeTicker(0);
  final InMemoryCluster cluster = new InMemoryCluster(() -> ticker.read() / 1_000_000_000L, 2);
  final BandwidthSettings settings =
      BandwidthSettings.builder(100_000)
          .group("A", 50, new GroupRule(AddressMatcher.parse(List.of("10.0.0.1")), null, null))
          .build();
  final ClientGroup a = settings.groups().get(0);

  private BandwidthShaper node(String id) {
    BandwidthShaper shaper = new BandwidthShaper(settings, ticker);
    new ClusterExchange(cluster.node(id), () -> ticker.read() / 1_000_000_000L, List.of(shaper));
    return shaper;
  }

  @Test
  void aNodeThatHasHeardNobodyPacesToItsPart() {
    BandwidthShaper alone = new BandwidthShaper(settings, ticker);
    // Alone, an unmeasured group gets 2 b_i = B = Â: no delay.
    assertThat(alone.decide(a, SIZE).kind()).isEqualTo(ShapingDecision.Kind.ADMIT);
    // One of two expected nodes: half of that, 50 KB/s, so 10 KB wait (1/50k − 1/100k) s.
    ShapingDecision d = node("node-0").decide(a, SIZE);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.DELAY);
    assertThat(d.delayNanos()).isEqualTo(100_000_000L);
  }

  @Test
  void aNodeThatHeardTheOthersAndLostThemDecidesAlone() {
    BandwidthShaper shaper = new BandwidthShaper(settings, ticker);
    ClusterExchange exchange =
        new ClusterExchange(
            cluster.node("node-0"), () -> ticker.read() / 1_000_000_000L, List.of(shaper));
    BandwidthShaper other = node("node-1");
    other.decide(a, SIZE);
    new ClusterExchange(
            cluster.node("node-1"), () -> ticker.read() / 1_000_000_000L, List.of(other))
        .run();
    exchange.run(); // heard node-1
    ticker.setNanos(10_000_000_000L); // node-1's report is stale now
    exchange.run();
    assertThat(shaper.decide(a, SIZE).kind()).isEqualTo(ShapingDecision.Kind.ADMIT);
  }
}
