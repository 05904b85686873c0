package org.overloadcontrol.internal.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
import org.overloadcontrol.internal.degrade.AdmissionSwitch;

/**
 * An endpoint's token-bucket admission control as its quality controller switches it (Welsh
 * &amp; Culler 2003, §3.4: a stage can "enable or disable the stage's admission control
 * mechanism"). Measures each class's arrivals per control period to tell whether the buckets
 * are what holds the load down, and to share the endpoint's throughput between the classes'
 * buckets when control is handed back to them.
 *
 * <p>Concurrency: used only by the quality controller, on the engine's periodic task.
 */
final class EndpointAdmissionSwitch implements AdmissionSwitch {

  private final ControlledEndpoint endpoint;
  private final Map<EndpointClass, Long> arrivalsAtLastPeriod = new HashMap<>();
  private final Map<EndpointClass, Long> arrivalsInLastPeriod = new HashMap<>();

  EndpointAdmissionSwitch(ControlledEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public boolean enabled() {
    return endpoint.admission().admissionEnabled();
  }

  @Override
  public void enable(double throughputPerSecond, long nowNanos) {
    EndpointAdmissionController admission = endpoint.admission();
    List<EndpointClass> controlled = controlledClasses();
    long total = 0;
    for (EndpointClass c : controlled) {
      total += arrivalsInLastPeriod.getOrDefault(c, 0L);
    }
    for (EndpointClass c : controlled) {
      // Each class restarts at its share of what the endpoint just completed; the multiclass
      // rounds of §3.3 then sort out priorities from there.
      double share =
          total == 0
              ? 1.0 / controlled.size()
              : (double) arrivalsInLastPeriod.getOrDefault(c, 0L) / total;
      admission.restartRate(c.controller(), throughputPerSecond * share, nowNanos);
    }
    admission.setAdmissionEnabled(true);
  }

  @Override
  public boolean raise(double throughputPerSecond, long nowNanos) {
    EndpointAdmissionController admission = endpoint.admission();
    List<EndpointClass> controlled = controlledClasses();
    long total = 0;
    for (EndpointClass c : controlled) {
      total += arrivalsInLastPeriod.getOrDefault(c, 0L);
    }
    boolean raised = false;
    for (EndpointClass c : controlled) {
      double share =
          total == 0
              ? 1.0 / controlled.size()
              : (double) arrivalsInLastPeriod.getOrDefault(c, 0L) / total;
      double rate = throughputPerSecond * share;
      if (rate > c.controller().rate()) {
        admission.restartRate(c.controller(), rate, nowNanos);
        raised = true;
      }
    }
    return raised;
  }

  @Override
  public void disable() {
    endpoint.admission().setAdmissionEnabled(false);
  }

  @Override
  public boolean limiting(long periodNanos) {
    boolean limiting = false;
    for (EndpointClass c : controlledClasses()) {
      long arrivals = c.arrivalCount();
      Long previous = arrivalsAtLastPeriod.put(c, arrivals);
      long delta = previous == null ? arrivals : arrivals - previous;
      arrivalsInLastPeriod.put(c, delta);
      double offeredPerSecond = delta * 1e9 / periodNanos;
      limiting |= offeredPerSecond > c.controller().rate();
    }
    return limiting;
  }

  private List<EndpointClass> controlledClasses() {
    List<EndpointClass> classes = endpoint.classes();
    classes.removeIf(c -> !c.controller().settings().controlled());
    return classes;
  }

  /** For logs: the current rates of the controlled classes. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (EndpointClass c : controlledClasses()) {
      ClassController cc = c.controller();
      b.append(b.length() == 0 ? "" : ", ")
          .append(cc.requestClass().name())
          .append('=')
          .append(String.format("%.2f/s", cc.rate()));
    }
    return b.toString();
  }
}
