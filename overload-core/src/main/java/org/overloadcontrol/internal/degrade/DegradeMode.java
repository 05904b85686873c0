package org.overloadcontrol.internal.degrade;

/**
 * How a degradable endpoint answers overload (Welsh &amp; Culler 2003, §4.5, Figures 12 and 13).
 */
public enum DegradeMode {
  /**
   * Degradation combined with admission control (the default, Figure 13): admission control is
   * off while quality can still fall, and takes over once quality sits at its minimum and the
   * target is still missed.
   */
  COMBINED,
  /**
   * Degradation alone (Figure 12): every request is admitted and served at the current
   * quality; at extreme load response times drift above the target.
   */
  ALONE
}
