package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.testing.Concurrently;

class SlotScheduleTest {

  private static final long T0 = 1_000_000;

  @Test
  void belowCapacityNobodyWaits() {
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    for (int i = 0; i < 10; i++) {
      assertThat(s.reserve(T0, 1, 10).waitSeconds()).isZero();
    }
    assertThat(s.scheduledWork(T0, 0)).isEqualTo(10);
  }

  @Test
  void arrivalTakesTheSmallestSlotWithRoom() {
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    List<Integer> waits = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      waits.add(s.reserve(T0, 1, 10).waitSeconds());
    }
    assertThat(waits.subList(0, 10)).containsOnly(0);
    assertThat(waits.subList(10, 20)).containsOnly(1);
    assertThat(waits.subList(20, 25)).containsOnly(2);
  }

  @Test
  void hardnessWeightsTheSlotsAndTheRuleIsNBelowC() {
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    // N[0] goes 0 -> 4 -> 8 -> 12: three hard requests fit, since each found N[0] < 10.
    assertThat(s.reserve(T0, 4, 10).waitSeconds()).isZero();
    assertThat(s.reserve(T0, 4, 10).waitSeconds()).isZero();
    assertThat(s.reserve(T0, 4, 10).waitSeconds()).isZero();
    assertThat(s.reserve(T0, 1, 10).waitSeconds()).isEqualTo(1);
    assertThat(s.scheduledWork(T0, 0)).isEqualTo(12);
  }

  @Test
  void theArrayShiftsEverySecond() {
    SlotSchedule s = new SlotSchedule(60, 2, T0);
    for (int i = 0; i < 6; i++) {
      s.reserve(T0, 1, 2);
    }
    assertThat(s.currentWaitSeconds(T0)).isEqualTo(3);
    assertThat(s.currentWaitSeconds(T0 + 1)).isEqualTo(2);
    assertThat(s.scheduledWork(T0 + 1, 0)).isEqualTo(2);
    assertThat(s.scheduledWork(T0 + 1, 2)).isZero();
    Reservation r = s.reserve(T0 + 2, 1, 2);
    assertThat(r.waitSeconds()).isEqualTo(1);
    assertThat(s.currentWaitSeconds(T0 + 100)).isZero();
  }

  @Test
  void aLongIdleStretchClearsEverySlot() {
    SlotSchedule s = new SlotSchedule(5, 1, T0);
    for (int i = 0; i < 6; i++) {
      s.reserve(T0, 1, 1);
    }
    for (int k = 0; k <= 5; k++) {
      assertThat(s.scheduledWork(T0 + 6, k)).isZero();
    }
  }

  @Test
  void beyondTheMaximumWaitTheQueueIsFull() {
    SlotSchedule s = new SlotSchedule(3, 1, T0);
    for (int i = 0; i < 4; i++) {
      assertThat(s.reserve(T0, 1, 1).waitSeconds()).isEqualTo(i);
    }
    assertThat(s.reserve(T0, 1, 1)).isEqualTo(Reservation.FULL);
    assertThat(s.currentWaitSeconds(T0)).isEqualTo(-1);
    assertThat(s.reserve(T0 + 1, 1, 1).waitSeconds()).isEqualTo(3);
  }

  @Test
  void positionCountsTheRequestsScheduledUpToTheSlot() {
    SlotSchedule s = new SlotSchedule(60, 3, T0);
    for (int i = 0; i < 7; i++) {
      s.reserve(T0, 1, 3);
    }
    Reservation r = s.reserve(T0, 1, 3);
    assertThat(r.waitSeconds()).isEqualTo(2);
    assertThat(r.position()).isEqualTo(8);
  }

  @Test
  void capacityIncreaseFillsTheNearSlotsFirst() {
    // §III-A: C requests scheduled for each of the next T seconds; C grows to C' > C; new
    // requests get waits as low as 0 (not first-come first-served for a while).
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    for (int i = 0; i < 50; i++) {
      s.reserve(T0, 1, 10);
    }
    assertThat(s.currentWaitSeconds(T0)).isEqualTo(5);
    assertThat(s.reserve(T0, 1, 20).waitSeconds()).isZero();
    for (int i = 0; i < 9; i++) {
      s.reserve(T0, 1, 20);
    }
    assertThat(s.reserve(T0, 1, 20).waitSeconds()).isEqualTo(1);
  }

  @Test
  void capacityDecreasePushesNewArrivalsPastTPrime() {
    // §III-A: C = 10 scheduled for T = 5 s; C' = 5: the 50 promised take T' = C·T/C' = 10 s,
    // so no one else is scheduled before T' and the next arrival waits T'.
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    for (int i = 0; i < 50; i++) {
      s.reserve(T0, 1, 10);
    }
    Reservation next = s.reserve(T0, 1, 5);
    assertThat(next.waitSeconds()).isEqualTo(10);
    for (int k = 0; k < 10; k++) {
      assertThat(s.scheduledWork(T0, k)).isEqualTo(5);
    }
    assertThat(next.position()).isEqualTo(51);
  }

  @Test
  void capacityDecreaseFillsGapsBeforeTheEnd() {
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    for (int i = 0; i < 10; i++) {
      s.reserve(T0, 1, 10);
    }
    // slot 0 holds 10; at C' = 4 it spills 4 into slot 1 and 2 into slot 2.
    s.capacity(T0, 4);
    assertThat(s.scheduledWork(T0, 0)).isEqualTo(4);
    assertThat(s.scheduledWork(T0, 1)).isEqualTo(4);
    assertThat(s.scheduledWork(T0, 2)).isEqualTo(2);
    assertThat(s.reserve(T0, 1, 4).waitSeconds()).isEqualTo(2);
  }

  @Test
  void spillPastTheLastSlotStaysInIt() {
    SlotSchedule s = new SlotSchedule(2, 100, T0);
    for (int i = 0; i < 100; i++) {
      s.reserve(T0, 1, 100);
    }
    s.capacity(T0, 10);
    assertThat(s.scheduledWork(T0, 2)).isEqualTo(80);
    assertThat(s.reserve(T0, 1, 10)).isEqualTo(Reservation.FULL);
  }

  @Test
  void infiniteCapacityNeverShapes() {
    SlotSchedule s = new SlotSchedule(5, Double.POSITIVE_INFINITY, T0);
    for (int i = 0; i < 10_000; i++) {
      assertThat(s.reserve(T0, 3, Double.POSITIVE_INFINITY).waitSeconds()).isZero();
    }
  }

  @Test
  void concurrentArrivalsNeverOverfillASlot() throws Exception {
    int threads = 4;
    int perThread = 5_000;
    SlotSchedule s = new SlotSchedule(3_000, 10, T0);
    AtomicInteger granted = new AtomicInteger();
    Concurrently.run(
        threads,
        perThread,
        () -> {
          if (s.reserve(T0, 1, 10).granted()) {
            granted.incrementAndGet();
          }
        });
    assertThat(granted.get()).isEqualTo(threads * perThread);
    // Invariant: with hardness 1 and N[k] < C, each slot holds exactly C, in order.
    int slots = threads * perThread / 10;
    for (int k = 0; k < slots; k++) {
      assertThat(s.scheduledWork(T0, k)).as("slot %d", k).isEqualTo(10);
    }
    assertThat(s.scheduledWork(T0, slots)).isZero();
  }

  @Test
  void threeReplicasFillingAtOnceLetInExactlyTheClusterCapacityEverySecond() {
    // C = 10 over three replicas, each with S = 10/3, filling its near seconds before any of
    // the others' promises arrive (the start of a crowd): without whole subunits per second
    // each would take 4 a second, 12 in all.
    double share = 10.0 / 3;
    List<SlotSchedule> replicas = new ArrayList<>();
    for (int rank = 0; rank < 3; rank++) {
      SlotSchedule s = new SlotSchedule(60, 10, T0);
      s.share(T0, share, 10, T0, new double[0], rank / 3.0);
      replicas.add(s);
    }
    for (SlotSchedule s : replicas) {
      for (int i = 0; i < 40; i++) {
        s.reserve(T0, 1, 10);
      }
    }
    for (int k = 0; k < 9; k++) {
      double second = 0;
      for (SlotSchedule s : replicas) {
        double work = s.scheduledWork(T0, k);
        assertThat(work).as("a replica's second %d", k).isIn(3.0, 4.0);
        second += work;
      }
      assertThat(second).as("second %d over the cluster", k).isEqualTo(10);
    }
  }

  @Test
  void aReplicasFractionalShareAveragesOutOverTheSeconds() {
    SlotSchedule s = new SlotSchedule(60, 10, T0);
    s.share(T0, 2.5, 10, T0, new double[0], 0);
    for (int i = 0; i < 25; i++) {
      s.reserve(T0, 1, 10);
    }
    double firstTen = 0;
    for (int k = 0; k < 10; k++) {
      firstTen += s.scheduledWork(T0, k);
      assertThat(s.scheduledWork(T0, k)).as("second %d", k).isIn(2.0, 3.0);
    }
    assertThat(firstTen).isEqualTo(25);
  }
}
