package org.overloadcontrol.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** WebQ's equation 1 and the rules for a cluster that is not whole, one call at a time. */
class CapacityShareTest {

  private static final long NOW = 1_000;

  private static NodeReport report(String node, long second, double load, double loadBefore) {
    return new NodeReport(
        node,
        second,
        load,
        loadBefore,
        Double.NaN,
        Double.NaN,
        second,
        new double[0],
        Map.of(),
        false,
        NodeReport.FORMAT);
  }

  private static ClusterView view(NodeReport... others) {
    return new ClusterView(List.of(others), NOW);
  }

  @Test
  void theShareFollowsTheLoad() {
    CapacityShare share = new CapacityShare(3, 2);
    CapacityShare.Share s =
        share.compute(NOW, new double[] {30, 0}, 100, false, view(report("b", NOW, 10, 0)));
    assertThat(s.whole()).isTrue();
    assertThat(s.share()).isCloseTo(75, within(1e-9));
    assertThat(s.clusterCapacity()).isEqualTo(100);
  }

  @Test
  void loadsOfOneAndTheSameSecondAreCompared() {
    // b has not yet reported for this second: its load is of NOW - 2, so ours must be too.
    CapacityShare share = new CapacityShare(3, 2);
    CapacityShare.Share s =
        share.compute(NOW, new double[] {150, 50}, 100, false, view(report("b", NOW - 1, 50, 0)));
    assertThat(s.share()).isCloseTo(50, within(1e-9));
  }

  @Test
  void anIdleNodeKeepsAReserve() {
    CapacityShare share = new CapacityShare(3, 2);
    CapacityShare.Share s =
        share.compute(NOW, new double[] {0, 0}, 100, false, view(report("b", NOW, 80, 80)));
    // The reserve comes out of the busy node's part: the two still add up to C.
    double floor = CapacityShare.RESERVE / 2;
    assertThat(s.share()).isCloseTo(100 * floor / (1 + floor), within(1e-9));
  }

  @Test
  void aStaleMemberFreezesTheLastWholeShare() {
    CapacityShare share = new CapacityShare(3, 2);
    share.compute(NOW, new double[] {10, 10}, 100, false, view(report("b", NOW, 30, 30)));
    CapacityShare.Share s =
        share.compute(
            NOW + 10,
            new double[] {40, 40},
            100,
            false,
            new ClusterView(List.of(report("b", NOW, 30, 30)), NOW + 10));
    assertThat(s.whole()).isFalse();
    assertThat(s.share()).isCloseTo(25, within(1e-9));
  }

  @Test
  void untilTheExpectedNodesAreHeardEachTakesItsEqualPart() {
    CapacityShare share = new CapacityShare(3, 3);
    CapacityShare.Share s =
        share.compute(NOW, new double[] {90, 90}, 90, false, view(report("b", NOW, 0, 0)));
    assertThat(s.whole()).isFalse();
    assertThat(s.share()).isCloseTo(30, within(1e-9));
  }

  @Test
  void aRestartedNodeTakesNoMoreThanTheOthersLeaveUntilTheyMakeRoom() {
    // b and c took all of C while this node was away; it comes back with a new id.
    CapacityShare share = new CapacityShare(3, 3);
    assertThat(share.compute(NOW, new double[] {0, 0}, 90, false, ClusterView.EMPTY).share())
        .as("before hearing anyone: 1/n")
        .isCloseTo(30, within(1e-9));
    CapacityShare.Share s =
        share.compute(
            NOW,
            new double[] {30, 30},
            90,
            false,
            view(holding("b", 30, 0.5), holding("c", 30, 0.5)));
    assertThat(s.share()).as("the others leave nothing").isCloseTo(0, within(1e-9));
    // They see its load and fall to their equation-1 parts; it rises into the room.
    s =
        share.compute(
            NOW,
            new double[] {30, 30},
            90,
            false,
            view(holding("b", 30, 1.0 / 3), holding("c", 30, 1.0 / 3)));
    assertThat(s.share()).isCloseTo(30, within(1e-9));
  }

  @Test
  void aRestartedNodeCountsTheCrashedIncarnationsPartUntilItIsForgotten() {
    CapacityShare share = new CapacityShare(3, 3);
    NodeReport crashed =
        new NodeReport(
            "a-before",
            NOW - 10,
            10,
            10,
            Double.NaN,
            0.2,
            NOW - 10,
            new double[0],
            Map.of(),
            false,
            NodeReport.FORMAT);
    CapacityShare.Share s =
        share.compute(
            NOW,
            new double[] {10, 10},
            90,
            false,
            view(holding("b", 30, 0.4), holding("c", 30, 0.4), crashed));
    assertThat(s.whole()).isFalse();
    assertThat(s.share()).as("b, c and the crashed one hold all of C").isCloseTo(0, within(1e-9));
  }

  private static NodeReport holding(String node, double load, double fraction) {
    return new NodeReport(
        node,
        NOW,
        load,
        load,
        Double.NaN,
        fraction,
        NOW,
        new double[0],
        Map.of(),
        false,
        NodeReport.FORMAT);
  }

  @Test
  void aLostMemberKeepsItsPartUntilTheClusterIsWholeAgain() {
    CapacityShare share = new CapacityShare(3, 3);
    double third = 1.0 / 3;
    share.compute(
        NOW,
        new double[] {10, 10},
        90,
        false,
        view(holding("b", 10, third), holding("c", 10, third)));
    // c's report was dropped (forgetAfter): b and this node share what c does not hold.
    CapacityShare.Share s =
        share.compute(NOW, new double[] {30, 30}, 90, false, view(holding("b", 10, third)));
    assertThat(s.whole()).isTrue();
    assertThat(s.share()).isCloseTo(30, within(1e-9));
    // c came back under a new id: three members again, nothing is kept for the old one.
    s =
        share.compute(
            NOW,
            new double[] {30, 30},
            90,
            false,
            view(holding("b", 10, 0.2), holding("c2", 10, 0.2)));
    assertThat(s.share()).isCloseTo(90 * 0.6, within(1e-9));
  }

  @Test
  void estimatedCapacitiesAddUp() {
    CapacityShare share = new CapacityShare(3, 2);
    NodeReport b =
        new NodeReport(
            "b",
            NOW,
            10,
            10,
            60,
            Double.NaN,
            NOW,
            new double[0],
            Map.of(),
            false,
            NodeReport.FORMAT);
    CapacityShare.Share s = share.compute(NOW, new double[] {10, 10}, 40, true, view(b));
    assertThat(s.clusterCapacity()).isEqualTo(100);
    assertThat(s.share()).isCloseTo(50, within(1e-9));
  }

  @Test
  void aLeavingMemberStillCountsItsPromisesButNotItsShare() {
    NodeReport leaving =
        new NodeReport(
            "b",
            NOW,
            50,
            50,
            Double.NaN,
            Double.NaN,
            NOW,
            new double[] {7, 8},
            Map.of(),
            true,
            NodeReport.FORMAT);
    CapacityShare share = new CapacityShare(3, 1);
    CapacityShare.Share s = share.compute(NOW, new double[] {10, 10}, 100, false, view(leaving));
    assertThat(s.share()).isCloseTo(100, within(1e-9));
    assertThat(CapacityShare.othersScheduled(view(leaving), NOW, 3)).containsExactly(7, 8, 0);
  }
}
