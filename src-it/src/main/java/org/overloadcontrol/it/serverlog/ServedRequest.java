package org.overloadcontrol.it.serverlog;

/**
 * One request as the container saw it, from the server-side request log: when it arrived at
 * the container, when its response completed, its path, its status, and what tells whether its
 * user had already left.
 *
 * @param arrivalNanos the container's arrival time of the request ({@link System#nanoTime()})
 * @param completionNanos when the response completed (or failed), same clock
 * @param path the request's path, context path included, without the query
 * @param status the response status the server sent or tried to send
 * @param failed whether the container could not complete the response (the connection was
 *     closed or reset by the client, or the write failed)
 * @param givesUpNanos when the load generator's user gives up on this request, from the
 *     {@link ServerRequestLog#GIVES_UP_HEADER} header (same clock: generator and server share
 *     the JVM), or {@link #NO_DEADLINE}
 * @param waitedNanos how long our filter says the request waited in its queue for a permit
 *     (its {@code OverloadContext.waited()}), or {@link #NOT_TOLD} under another guard or none:
 *     a diagnostic, to split a slow response into its wait and its execution
 * @param rejection why our filter refused the request ({@code RejectionReason.code()}), as
 *     {@link ServerRequestLog#REJECTION_ATTRIBUTE} carries it, or {@code null}: not refused,
 *     refused by another guard, or by a filter whose refusal hook does not say
 */
public record ServedRequest(
    long arrivalNanos,
    long completionNanos,
    String path,
    int status,
    boolean failed,
    long givesUpNanos,
    long waitedNanos,
    String rejection) {

  /** {@link #givesUpNanos} of a request that carried no deadline. */
  public static final long NO_DEADLINE = Long.MIN_VALUE;

  /** {@link #waitedNanos} of a request whose guard did not say how long it waited. */
  public static final long NOT_TOLD = -1L;

  /** A request whose guard did not say how long it waited, nor why it refused. */
  public ServedRequest(
      long arrivalNanos,
      long completionNanos,
      String path,
      int status,
      boolean failed,
      long givesUpNanos) {
    this(arrivalNanos, completionNanos, path, status, failed, givesUpNanos, NOT_TOLD, null);
  }

  /** Arrival to completion. */
  public long responseNanos() {
    return completionNanos - arrivalNanos;
  }

  /**
   * Whether the user had gone before the response was complete: the container failed to
   * deliver it, or it completed after the user's own deadline. Such a response is work the
   * server did for nobody.
   */
  public boolean userLeft() {
    return failed || givesUpNanos != NO_DEADLINE && completionNanos - givesUpNanos > 0;
  }

  /** A refusal by whatever guards the server: 503 (or 429, which some limiters send). */
  public boolean refused() {
    return status == 503 || status == 429;
  }

  /** A page the application served: 2xx or 3xx. */
  public boolean served() {
    return status >= 200 && status < 400;
  }
}
