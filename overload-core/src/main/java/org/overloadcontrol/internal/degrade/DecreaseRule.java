package org.overloadcontrol.internal.degrade;

/** How a missed target lowers the quality q by the step s. */
enum DecreaseRule {
  /** {@code q ← q·(1 − s)}: large cuts at high quality, fine ones near the minimum. */
  MULTIPLICATIVE,
  /** {@code q ← q − s}: the same cut at every level. */
  ADDITIVE;

  /** The quality after one cut from {@code quality}, not yet clamped to the minimum. */
  double lower(double quality, double step) {
    return this == MULTIPLICATIVE ? quality * (1.0 - step) : quality - step;
  }
}
