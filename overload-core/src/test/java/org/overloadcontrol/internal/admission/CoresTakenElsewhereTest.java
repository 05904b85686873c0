package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A concurrency limit asks whether the admitted executions are what takes the process's cores
 * before it cuts ({@link CoreShare}), on a fake clock and fake CPU clocks: executions long on
 * cores taken by other work (a cold JVM compiling, a retry storm's refusals) do not cut it,
 * while a CPU-bound endpoint's and an idle process's long executions still do, though never
 * under the cores that such an endpoint's executions take.
 */
class CoresTakenElsewhereTest {

  private static final long MS = 1_000_000L;
  private static final long TARGET = 100 * MS;
  private final ClassDefinition api = new ClassDefinition("api", 1, RequestKind.BROWSING, 1);
  private final FakeTicker clock = new FakeTicker(1_000_000 * MS);
  private final Map<ConcurrencyGroup, GroupLoad> loads = new HashMap<>();

  /** A process on {@code cores} cores whose CPU time runs at {@code utilisation} of them. */
  private final class FakeCpu implements CpuClock {
    double utilisation;
    final int cores;
    final long startNanos = clock.read();

    FakeCpu(double utilisation) {
      this(utilisation, 1);
    }

    FakeCpu(double utilisation, int cores) {
      this.utilisation = utilisation;
      this.cores = cores;
    }

    @Override
    public long threadNanos() {
      return 0;
    }

    @Override
    public long processNanos() {
      return (long) ((clock.read() - startNanos) * utilisation * cores);
    }

    @Override
    public int cores() {
      return cores;
    }
  }

  private ConcurrencyGroup group(CpuClock cpu) {
    return group(cpu, AdmissionListener.NONE);
  }

  private ConcurrencyGroup group(CpuClock cpu, AdmissionListener listener) {
    ConcurrencyGroup g = GroupLoad.group(180, 180, listener, clock.read());
    g.cpuClock(cpu);
    return g;
  }

  /**
   * Two requests a millisecond for {@code millis}, each executing {@code executionMillis} and
   * taking {@code cpuShare} of it on its thread; a request over the limit waits up to 50 ms.
   */
  private void drive(ConcurrencyGroup g, long millis, long executionMillis, double cpuShare) {
    drive(g, millis, inFlight -> executionMillis, cpuShare);
  }

  /** As above, each execution's length a function of the executions in flight when it starts. */
  private void drive(
      ConcurrencyGroup g, long millis, IntToLongFunction executionMillis, double cpuShare) {
    GroupLoad load = loads.computeIfAbsent(g, k -> new GroupLoad(k, api, TARGET, clock));
    load.maxWait = 50 * MS;
    load.cpuShare = cpuShare;
    load.drive(millis, 2, 0, (elapsed, inFlight) -> executionMillis.applyAsLong(inFlight) * MS);
  }

  @Test
  void executionsLongOnCoresTakenByOtherWorkDoNotHoldTheLimitDown() {
    // Five times the target at any level, the process's core saturated, the executions using a
    // thousandth of their time on it (a method that sleeps while the JVM compiles). The first
    // windows cut, until windows at several levels show the executions as long at each.
    ConcurrencyGroup g = group(new FakeCpu(1.0));
    drive(g, 10_000, 500, 0.001);
    assertThat(g.limit()).isEqualTo(180);
  }

  @Test
  void executionsLongOnTheMachinesCoresTakenByAnotherProcessDoNotHoldTheLimitDown() {
    // The same executions, the process using a third of its core: another process (clients
    // re-sending every refusal at once, a neighbour) takes the rest, and the machine's reading
    // says its cores are saturated.
    ConcurrencyGroup g = group(new FakeCpu(0.3));
    g.coresSaturated(true);
    drive(g, 10_000, 500, 0.001);
    assertThat(g.limit()).isEqualTo(180);
    ConcurrencyGroup idleMachine = group(new FakeCpu(0.3));
    drive(idleMachine, 10_000, 500, 0.001);
    assertThat(idleMachine.limit())
        .as("cores to spare: the target itself is missed")
        .isLessThan(180);
  }

  @Test
  void eachWindowSaysWhatItReadAndWhyItHeld() {
    List<LimitRound> rounds = new ArrayList<>();
    ConcurrencyGroup g =
        group(
            new FakeCpu(1.0),
            new AdmissionListener() {
              @Override
              public void onLimitRound(LimitRound round) {
                rounds.add(round);
              }
            });
    drive(g, 10_000, 500, 0.001);
    LimitRound last = rounds.get(rounds.size() - 1);
    assertThat(last.held()).isEqualTo(LimitRound.Held.CORES_TAKEN_ELSEWHERE);
    assertThat(last.processCores()).isCloseTo(1.0, within(0.05));
    assertThat(last.medianOfTarget()).isCloseTo(5.0, within(0.5));
    assertThat(last.queueingShare()).isLessThan(ConcurrencyGroup.SCALED_QUEUEING);
    assertThat(last.level()).isGreaterThan(100);
    // The first windows could not yet tell queueing from other work, so they cut, and the
    // windows right after a cut wait for the requests admitted before it.
    assertThat(rounds.get(0).queueingShare()).isNaN();
    assertThat(rounds.get(0).held()).isEqualTo(LimitRound.Held.NO);
    assertThat(rounds.get(0).limitAfter()).isLessThan(rounds.get(0).limitBefore());
    assertThat(rounds).anyMatch(r -> r.held() == LimitRound.Held.SETTLING);
  }

  @Test
  void lightExecutionsThatQueueAreStillCutOnSaturatedCores() {
    // A downstream pool of 8 connections, 20 ms a call: the executions wait their turn, so
    // they run 20 ms times the in-flight count over 8, using little of the saturated core.
    ConcurrencyGroup g = group(new FakeCpu(1.0));
    drive(g, 10_000, inFlight -> Math.max(20, 20L * inFlight / 8), 0.001);
    assertThat(g.limit()).isLessThan(60);
  }

  @Test
  void withoutCpuReadingsTheSameExecutionsCutTheLimit() {
    ConcurrencyGroup g = group(CpuClock.NONE);
    drive(g, 5_000, 500, 0.001);
    assertThat(g.limit()).isLessThan(60);
  }

  @Test
  void aCpuBoundEndpointOnSaturatedCoresIsStillCut() {
    ConcurrencyGroup g = group(new FakeCpu(1.0));
    drive(g, 5_000, 500, 0.9);
    assertThat(g.limit()).isLessThan(60);
  }

  @Test
  void executionsThatBurnAPartOfTheirTargetAreStillCutWhenTheyGetLittleOfTheCores() {
    // 15 ms of CPU against a 100 ms target, spread over 500 ms on cores shared with other
    // work: fewer of them in flight each gets more of the cores, so the cut shortens them.
    ConcurrencyGroup g = group(new FakeCpu(1.0));
    drive(g, 5_000, 500, 0.03);
    assertThat(g.limit()).isLessThan(60);
  }

  @Test
  void longExecutionsOnIdleCoresAreStillCut() {
    // A method waiting on a slow downstream: the process's core mostly idle.
    ConcurrencyGroup g = group(new FakeCpu(0.2));
    drive(g, 5_000, 500, 0.001);
    assertThat(g.limit()).isLessThan(60);
  }

  @Test
  void aLimitCutBeforeTheCoresSaturatedGrowsBackWhileReached() {
    FakeCpu cpu = new FakeCpu(0.2);
    ConcurrencyGroup g = group(cpu);
    drive(g, 3_000, 500, 0.001);
    int cut = g.limit();
    assertThat(cut).isLessThan(60);
    cpu.utilisation = 1.0;
    drive(g, 10_000, 500, 0.001);
    assertThat(g.limit()).isGreaterThan(2 * cut);
  }

  /**
   * A CPU-bound endpoint of 2 ms against a 20 ms target on two cores that a retry storm's
   * refusals share: the executions share what the refusals leave them, 25 ms each times the
   * executions in flight, over the target even alone.
   */
  private void driveCpuBound(ConcurrencyGroup g, long millis, long cpuNanos) {
    GroupLoad load = loads.computeIfAbsent(g, k -> new GroupLoad(k, api, 20 * MS, clock));
    load.maxWait = 10 * MS;
    load.cpuNanos = cpuNanos;
    load.drive(millis, 2, 0, (elapsed, inFlight) -> 25L * inFlight * MS);
  }

  @Test
  void aCpuBoundEndpointOnSaturatedCoresIsNotCutUnderItsCores() {
    // Over the target at every level, shorter at fewer: the cuts go on, but stop at the two
    // cores, where a cut would only idle one.
    List<LimitRound> rounds = new ArrayList<>();
    ConcurrencyGroup g = GroupLoad.recordedGroup(180, 180, clock, rounds);
    g.cpuClock(new FakeCpu(1.0, 2));
    driveCpuBound(g, 10_000, 2 * MS);
    assertThat(g.limit()).isEqualTo(2);
    assertThat(rounds).anyMatch(r -> r.held() == LimitRound.Held.KEEPING_CORES_BUSY);
  }

  @Test
  void aCpuBoundEndpointOnSaturatedCoresLetsNoBrowsingRequestWaitUntilTheCoresHaveTimeAgain() {
    // Its waiters would wait for the cores its executions already take.
    FakeCpu cpu = new FakeCpu(1.0, 2);
    ConcurrencyGroup g = group(cpu);
    driveCpuBound(g, 2_000, 2 * MS);
    ConcurrencyGroup.Partition p = g.partition(api, 20 * MS, 10 * MS);
    assertThat(p.roomToWait()).isFalse();
    // Once the process's utilisation has fallen under the saturation's lower bound, the next
    // rounds open the room again.
    cpu.utilisation = 0.3;
    driveCpuBound(g, 2_000, 2 * MS);
    assertThat(p.roomToWait()).isTrue();
  }

  @Test
  void browsingRequestsStillWaitOnCoresToSpareOrForLightExecutions() {
    ConcurrencyGroup spare = group(new FakeCpu(0.3, 2));
    driveCpuBound(spare, 2_000, 2 * MS);
    assertThat(spare.partition(api, 20 * MS, 10 * MS).roomToWait()).isTrue();
    ConcurrencyGroup light = group(new FakeCpu(1.0, 2));
    driveCpuBound(light, 2_000, MS / 2);
    assertThat(light.partition(api, 20 * MS, 10 * MS).roomToWait()).isTrue();
  }

  @Test
  void theSameEndpointOnCoresToSpareIsCutUnderThem() {
    // The same long executions with the cores mostly idle: what lengthens them is not the
    // cores, so the limit is cut for the target alone.
    ConcurrencyGroup g = group(new FakeCpu(0.3, 2));
    driveCpuBound(g, 10_000, 2 * MS);
    assertThat(g.limit()).isEqualTo(1);
  }

  @Test
  void aLightEndpointOnSaturatedCoresIsNotHeldAtThem() {
    // Half a millisecond of CPU against the 20 ms target, a fortieth: not what takes the cores.
    ConcurrencyGroup g = group(new FakeCpu(0.3, 2));
    g.coresSaturated(true);
    driveCpuBound(g, 10_000, MS / 2);
    assertThat(g.limit()).isEqualTo(1);
  }
}
