package org.overloadcontrol.it.experiments.workloads;

import jakarta.servlet.Servlet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * One application of the workload matrix: a single endpoint, named {@code work} at
 * {@code /work}, with its p90 target, the container a user would put it in, and its nominal
 * capacity (what it would serve on an idle machine; each run measures the real one).
 *
 * @param key as {@code -Dexperiment.workloads} selects it
 * @param description for the report
 * @param servlet the endpoint
 * @param initParams the servlet's init-params
 * @param target the endpoint's p90 target, the only setting our filter gets
 * @param nominalPerSecond the capacity on an idle machine, requests/s
 * @param peerConcurrency what a fixed-concurrency peer (Jetty's {@code QoSHandler}) is given:
 *     the concurrency the endpoint needs at its nominal capacity
 * @param containers the containers it runs in unless {@code -Dexperiment.containers} says
 */
record Workload(
    String key,
    String description,
    Class<? extends Servlet> servlet,
    Map<String, String> initParams,
    Duration target,
    double nominalPerSecond,
    int peerConcurrency,
    List<ContainerKind> containers) {

  /** The containers' default request threads (Jetty's and Tomcat's), as README's users keep. */
  static final int DEFAULT_THREADS = 200;

  /** The endpoint's path under the root context. */
  static final String PATH = "work";

  /** (a) as a WAR: a 50 ms sleep, target 100 ms, README's defaults, 200 threads. */
  static Workload sleepWar() {
    return sleepingWar(
        "a-war",
        "(a) an API method that sleeps 50 ms, target 100 ms, as a WAR with README's defaults"
            + " (200 request threads: 4000/s nominal)",
        50);
  }

  /**
   * (a) as a WAR at a quarter of the rate: a 250 ms sleep, target 500 ms, the same 200 threads.
   * The same thread-bound shape as {@link #sleepWar()}, at 800 requests a second instead of
   * 4,000, so that the load generator, which shares the machine's cores with the server, can
   * offer three times the capacity and its clients' retries (at 4,000 a second it falls seconds
   * behind its schedule above 1×, and no client-side number is readable for any guard).
   */
  static Workload slowSleepWar() {
    return sleepingWar(
        "a-war-slow",
        "(a) the thread-bound WAR at a quarter of the rate: a method that sleeps 250 ms, target"
            + " 500 ms, README's defaults (200 request threads: 800/s nominal)",
        250);
  }

  /** A WAR of {@link #DEFAULT_THREADS} threads whose method sleeps {@code sleepMillis}, target twice it. */
  private static Workload sleepingWar(String key, String description, int sleepMillis) {
    return new Workload(
        key,
        description,
        SleepWorkServlet.class,
        Map.of("sleepMillis", Integer.toString(sleepMillis)),
        Duration.ofMillis(2L * sleepMillis),
        DEFAULT_THREADS * 1000.0 / sleepMillis,
        DEFAULT_THREADS,
        List.of(ContainerKind.TOMCAT, ContainerKind.JETTY));
  }

  /** (b): about 2 ms of CPU a request, target 20 ms, on Jetty. */
  static Workload cpuJson() {
    int cores = Runtime.getRuntime().availableProcessors();
    return new Workload(
        "b",
        "(b) a CPU-bound JSON endpoint, about 2 ms of CPU a request, target 20 ms ("
            + cores
            + " cores: "
            + cores * 500
            + "/s nominal)",
        CpuJsonServlet.class,
        Map.of("cpuMicros", "2000"),
        Duration.ofMillis(20),
        cores * 500.0,
        cores,
        List.of(ContainerKind.JETTY));
  }

  /** (c): a downstream pool of 8 connections, 20 ms a call, target 100 ms. */
  static Workload downstreamPool() {
    return new Workload(
        "c",
        "(c) an endpoint behind a downstream pool of 8 connections, a 20 ms call, target 100 ms"
            + " (400/s nominal)",
        DownstreamPoolServlet.class,
        Map.of("poolSize", "8", "callMillis", "20"),
        Duration.ofMillis(100),
        8 * 1000.0 / 20,
        8,
        List.of(ContainerKind.JETTY));
  }

  static List<Workload> all() {
    return List.of(sleepWar(), slowSleepWar(), cpuJson(), downstreamPool());
  }

  /** The workload named {@code key}. */
  static Workload named(String key) {
    return all().stream()
        .filter(w -> w.key().equals(key))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + key + "'"));
  }
}
