package org.overloadcontrol.queue;

import java.time.Duration;
import org.overloadcontrol.base.OverloadLog;

/**
 * One log line per FIFO↔LIFO switch and per permit-limit change, never per request; the
 * listener both adapters install by default.
 */
public final class LoggingQueueListener implements QueueListener {

  private static final OverloadLog LOG = OverloadLog.get("org.overloadcontrol.queue");

  @Override
  public void onOrderChange(boolean lifo, double signal, String unit) {
    String value =
        unit.equals("ns")
            ? Duration.ofNanos((long) signal).toMillis() + " ms wait"
            : String.format("%.2f cpu", signal);
    LOG.info(
        "overload-control: browsing queues now {} ({})",
        lifo ? "LIFO (overloaded)" : "FIFO",
        value);
  }

  @Override
  public void onPermitLimitChange(String endpoint, int from, int to) {
    LOG.info("overload-control: endpoint '{}' execution permits {} -> {}", endpoint, from, to);
  }
}
