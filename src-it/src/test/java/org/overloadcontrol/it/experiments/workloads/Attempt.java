package org.overloadcontrol.it.experiments.workloads;

/**
 * One request as its client saw it: the client-side latency log of the matrix, which also
 * holds the time a request spent in the container's own queue and in the client's connection
 * pool, invisible to the server's log.
 *
 * @param user the client (one per arrival; its retries share it)
 * @param attempt 0 for the first send, then 1, 2, … for retries
 * @param scheduledNanos when the attempt was due to be sent ({@link System#nanoTime()})
 * @param sentNanos when its request went to the wire (the client committed it), {@link
 *     #NOT_SENT} when it never did
 * @param doneNanos when its response (or failure) arrived
 * @param status the HTTP status, {@link #NO_RESPONSE} when none came
 */
record Attempt(
    int user, int attempt, long scheduledNanos, long sentNanos, long doneNanos, int status) {

  static final int NO_RESPONSE = 0;

  static final long NOT_SENT = Long.MIN_VALUE;

  /**
   * How long the attempt took to go on the wire after it was due: the generator's own lag, its
   * wait for one of its connections, and a new connection's handshake (which waits on the
   * server's accept queue); -1 when it never did.
   */
  long sendDelayNanos() {
    return sentNanos == NOT_SENT ? -1 : sentNanos - scheduledNanos;
  }

  long latencyNanos() {
    return doneNanos - scheduledNanos;
  }

  boolean ok() {
    return status == 200;
  }

  /** A refusal: our filter's and Jetty's 503, the Netflix filter's 429. */
  boolean refused() {
    return status == 503 || status == 429;
  }
}
