package org.overloadcontrol.internal.metrics;

import java.util.List;
import java.util.Objects;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;

/**
 * What observability reads of the bandwidth shares (Li &amp; Jamin, "A Measurement-Based
 * Admission-Controlled Web Server", §V): each client group's allocation b<sub>i</sub>, measured
 * average b̂<sub>i</sub>, active flag and counts, and the shaper's B and Â. Read-only, so the
 * gauges and the status document cannot disturb the shaper; an interface, so tests can show a
 * state without driving requests through the equations.
 */
interface BandwidthView {

  /** Every configured group now, in configuration order. */
  List<GroupSnapshot> groups();

  /** B, the total bandwidth the groups' shares divide, bytes per second. */
  double totalBytesPerSecond();

  /** Â, the maximum measured total bandwidth (starts at B), bytes per second. */
  double maxMeasuredBytesPerSecond();

  /** A view of a running shaper. */
  static BandwidthView of(BandwidthShaper shaper) {
    Objects.requireNonNull(shaper, "shaper");
    return new BandwidthView() {
      @Override
      public List<GroupSnapshot> groups() {
        return shaper.snapshot();
      }

      @Override
      public double totalBytesPerSecond() {
        return shaper.settings().totalBytesPerSecond();
      }

      @Override
      public double maxMeasuredBytesPerSecond() {
        return shaper.maxMeasuredBytesPerSecond();
      }
    };
  }
}
