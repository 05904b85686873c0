package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.metrics.EndpointState;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.metrics.OverloadWatch;
import org.overloadcontrol.internal.metrics.StateReading;

/**
 * Each endpoint's state as a running adapter's observability last judged it, in the one word
 * the log, the status document, the metrics and the dashboard use: what a health check reports
 * ({@link ObservabilityHandle#endpointStates}). A copy, read again for a newer judgement.
 *
 * @param endpoints each endpoint's state, by the endpoint's name in alphabetical order
 * @param counts how many endpoints are in each state, by its word, from the healthiest state to
 *     the worst, every state present
 */
public record EndpointStates(List<Reading> endpoints, Map<String, Integer> counts) {

  /** The word of the state in which an endpoint refuses requests. */
  public static final String SHEDDING = EndpointState.SHEDDING.word();

  public EndpointStates {
    endpoints = List.copyOf(endpoints);
    // A copy that keeps the states' order, which Map.copyOf would not.
    counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
  }

  /**
   * One endpoint's state.
   *
   * @param endpoint the endpoint's name
   * @param state the state's word ({@code healthy}, {@code limiting}, {@code degraded}, {@code
   *     shedding})
   * @param refusedShare the share of the window's answers that were refusals, 0 to 1
   */
  public record Reading(String endpoint, String state, double refusedShare) {

    public Reading {
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(state, "state");
    }

    /** Whether the endpoint refuses requests now. */
    public boolean shedding() {
      return state.equals(SHEDDING);
    }
  }

  /** Whether any endpoint refuses requests now. */
  public boolean anyShedding() {
    return endpoints.stream().anyMatch(Reading::shedding);
  }

  /** The states {@code observability}'s watch last judged, of its engine's endpoints. */
  static EndpointStates of(Observability observability) {
    List<ControlledEndpoint> all = observability.engine().endpoints();
    all.sort(Comparator.comparing(ControlledEndpoint::name));
    OverloadWatch watch = observability.watch();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (EndpointState s : EndpointState.values()) {
      counts.put(s.word(), 0);
    }
    List<Reading> endpoints = new ArrayList<>(all.size());
    for (ControlledEndpoint e : all) {
      // One reading per endpoint, so that its line and the counts cannot disagree.
      StateReading r = watch.reading(e.name());
      endpoints.add(new Reading(e.name(), r.state().word(), r.refusedShare()));
      counts.merge(r.state().word(), 1, Integer::sum);
    }
    return new EndpointStates(endpoints, counts);
  }
}
