package org.overloadcontrol.it.load;

/** What became of one request attempt, as LIFO-Pri's Table 4 counts them. */
public enum Outcome {
  /** 2xx: served. */
  COMPLETED,
  /** The user gave up before the answer came (the attempt's timeout passed). */
  TIMED_OUT,
  /**
   * Refused: 503 or 429 (by a guard or the shop itself), or a redirect away from the page
   * ("dropped" in the paper).
   */
  REJECTED,
  /** Any other status or a transport error. */
  FAILED
}
