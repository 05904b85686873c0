package org.overloadcontrol.jetty.jmx;

import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.eclipse.jetty.jmx.ObjectMBean;
import org.eclipse.jetty.util.annotation.ManagedAttribute;
import org.eclipse.jetty.util.annotation.ManagedObject;
import org.eclipse.jetty.util.annotation.ManagedOperation;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.jetty.OverloadHandler;

/**
 * The JMX view of an {@link OverloadHandler}, as Jetty's own handlers have one (its
 * {@code QoSHandler} shows its limit and its active and suspended requests): Jetty's
 * {@code MBeanContainer} finds this class by its name ({@code jmx.<Handler>MBean}) for every
 * {@code OverloadHandler} in the server, so a jetty-home with the {@code jmx} module shows the
 * overload handler with no code of the operator's. Counts since start, summed over the
 * endpoints; {@link #getEndpoints} has one line per endpoint. Every attribute reads the handler's
 * {@link OverloadHandler#endpointSnapshots} at the moment it is asked; a stopped handler reads as
 * zero.
 */
@ManagedObject("Overload control: admission, wait queues and refusals per endpoint")
public class OverloadHandlerMBean extends ObjectMBean {

  /** The view of {@code handler}; Jetty's {@code MBeanContainer} creates it. */
  public OverloadHandlerMBean(Object handler) {
    super(handler);
  }

  private OverloadHandler handler() {
    return (OverloadHandler) getManagedObject();
  }

  private List<EndpointSnapshot> endpoints() {
    return handler().endpointSnapshots();
  }

  /** Whether the handler's engine is running. */
  @ManagedAttribute("Whether the overload engine is running")
  public boolean isRunning() {
    // A running handler has a configuration version in force, from 1; a stopped one reads 0.
    return handler().configVersion() > 0;
  }

  /** The configuration version in force: 1 at start, one more per applied reload; 0 stopped. */
  @ManagedAttribute("Configuration version in force (1 at start, +1 per applied reload)")
  public long getConfigVersion() {
    return handler().configVersion();
  }

  /** What the last reload did, as {@link #reload} said it; empty before the first. */
  @ManagedAttribute("What the last reload did")
  public String getLastReload() {
    ReloadResult last = handler().lastReload();
    return last == null ? "" : said(last);
  }

  /**
   * Reads the configuration again (the handler's keys, its YAML file, the operator's file) and
   * puts it in force when it is valid as a whole (docs/guide/reload.md).
   *
   * @return {@code applied: version N; changed ...}, or {@code refused: } and the message
   *     naming the key, value and layer, the running version staying in force
   */
  @ManagedOperation(
      value = "Reload the configuration: the new version, or the refusal naming the key",
      impact = "ACTION")
  public String reload() {
    OverloadHandler handler = handler();
    if (handler.configVersion() == 0) {
      return "refused: the overload handler is not running";
    }
    return said(handler.reload());
  }

  private static String said(ReloadResult r) {
    return r.applied()
        ? "applied: version " + r.version() + "; " + r.message()
        : "refused (version " + r.version() + " stays in force): " + r.message();
  }

  /** Requests that arrived, over all endpoints and classes. */
  @ManagedAttribute("Requests that arrived at the overload handler")
  public long getArrivals() {
    return sum(EndpointSnapshot::arrivals);
  }

  /** Requests that completed. */
  @ManagedAttribute("Requests that completed")
  public long getCompleted() {
    return sum(EndpointSnapshot::completed);
  }

  /** Requests refused by admission control or a full queue (503 + Retry-After). */
  @ManagedAttribute("Requests refused by admission control or a full wait queue")
  public long getRefused() {
    return sum(EndpointSnapshot::refused);
  }

  /** Requests that waited in a queue until their maximum wait and were answered 503. */
  @ManagedAttribute("Requests whose wait in a queue expired")
  public long getExpired() {
    return sum(EndpointSnapshot::expired);
  }

  /** Requests waiting in the wait queues now. */
  @ManagedAttribute("Requests waiting in the wait queues now")
  public int getWaiting() {
    return endpoints().stream().mapToInt(EndpointSnapshot::waiting).sum();
  }

  /** The execution permits of the wait queues ({@code queue.permits}), 0 without queues. */
  @ManagedAttribute("Execution permits of the wait queues (queue.permits), 0 without queues")
  public int getPermits() {
    return handler().queuePermits();
  }

  /** Requests running now under an execution permit or a concurrency limit. */
  @ManagedAttribute("Requests in flight now (permits in use, or under a concurrency limit)")
  public int getInFlight() {
    return endpoints().stream().mapToInt(EndpointSnapshot::inFlight).sum();
  }

  /** One line per endpoint: its limit, in-flight, waiting, arrived and refused counts. */
  @ManagedAttribute("Per endpoint: limit, in flight, waiting, arrived, refused")
  public String[] getEndpoints() {
    return endpoints().stream().map(OverloadHandlerMBean::line).toArray(String[]::new);
  }

  private long sum(ToLongFunction<EndpointSnapshot> count) {
    return endpoints().stream().mapToLong(count).sum();
  }

  /**
   * The endpoint's own limit: its concurrency group's limit or its share of the permits, or
   * "none" (the queues' permits, {@link #getPermits}, are shared by all endpoints).
   */
  private static String limit(EndpointSnapshot e) {
    return e.limit().isPresent() ? Integer.toString(e.limit().getAsInt()) : "none";
  }

  private static String line(EndpointSnapshot e) {
    return String.format(
        Locale.ROOT,
        "%s: limit %s, %d in flight, %d waiting, %d arrived," + " %d refused",
        e.name(),
        limit(e),
        e.inFlight(),
        e.waiting(),
        e.arrivals(),
        e.refused());
  }
}
