package org.overloadcontrol.it.load;

/** What became of one request attempt, as LIFO-Pri's Table 4 counts them. */
public enum Outcome {
  /** 200 (or another 2xx/3xx): served. */
  COMPLETED,
  /** The user gave up before the answer came (the attempt's timeout passed). */
  TIMED_OUT,
  /** 503: refused by the filter or the shop ("dropped" in the paper). */
  REJECTED,
  /** Any other status or a transport error. */
  FAILED
}
