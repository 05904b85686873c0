package org.overloadcontrol.internal.engine;

import java.util.Objects;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.base.OverloadLog;

/**
 * Writes every window of the concurrency limits at DEBUG on the log {@value #NAME}, then hands
 * it on: an operator who asks why the limit moved (or held) reads the window's samples, p90,
 * level, queueing share and process cores beside the limit, without a profiler or a listener
 * of their own. One line per group and window (at most about ten a second per group), built
 * only when DEBUG is on.
 */
final class LimitLog implements AdmissionListener {

  /** The log's name: an operator turns it to DEBUG to see the limit's windows. */
  static final String NAME = "org.overloadcontrol.limit";

  private static final OverloadLog LOG = OverloadLog.get(NAME);

  private final AdmissionListener next;

  private LimitLog(AdmissionListener next) {
    this.next = next;
  }

  /** {@code listener}, with the limit's windows written to the log first. */
  static AdmissionListener around(AdmissionListener listener) {
    Objects.requireNonNull(listener, "listener");
    return listener instanceof LimitLog ? listener : new LimitLog(listener);
  }

  /** The line a window is written as. */
  static String line(LimitRound round) {
    return "overload-control: " + round;
  }

  @Override
  public void onLimitRound(LimitRound round) {
    if (LOG.isDebugEnabled()) {
      LOG.debug("{}", line(round));
    }
    next.onLimitRound(round);
  }

  @Override
  public void onRound(ControllerRound round) {
    next.onRound(round);
  }
}
