package org.overloadcontrol.internal.pipeline;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.overloadcontrol.base.OverloadLog;

/**
 * Tells when the client of a held request without a body closes its connection, for an adapter
 * whose container lets it read that connection while the request waits (Jetty's end point: the
 * handler with Jetty's types, the filter by reflection). A request without a body has been read
 * to its end, so the only bytes that can come before its response are the end of the stream
 * (the client closed or reset it) or, rarely, a pipelined next request: the adapter asks the
 * connection to say when it is readable, and then this reads one byte.
 *
 * <p>The watch owns the connection's read interest only while the request is held: {@link
 * #stop} gives it back before the request runs or is answered. A byte of a pipelined request
 * cannot be given back; the response must then say {@code Connection: close}, and the client
 * sends that request again on a new connection, as HTTP/1.1 clients do for pipelined requests
 * left unanswered.
 */
public final class ConnectionWatch {

  private static final OverloadLog LOG = OverloadLog.get(ConnectionWatch.class);

  private enum State {
    WATCHING,
    STOPPED,
    READING,
    DONE,
    PIPELINED
  }

  private final IntSupplier readOne;
  private final Runnable giveBack;
  private final Runnable left;
  private final AtomicReference<State> state = new AtomicReference<>(State.WATCHING);

  /**
   * @param readOne reads at most one byte without blocking: negative at the end of the stream or
   *     on an I/O error (a reset), 0 when nothing was there, positive for a byte of a next
   *     request
   * @param giveBack gives the read interest back to the connection
   * @param left called once if the client leaves while the watch is on
   */
  public ConnectionWatch(IntSupplier readOne, Runnable giveBack, Runnable left) {
    this.readOne = readOne;
    this.giveBack = giveBack;
    this.left = left;
  }

  /**
   * Gives the read interest back to the connection; call before the request runs or is
   * answered, on any thread but {@code left}'s.
   *
   * @return whether a byte of a pipelined request was read, so the response must close the
   *     connection
   */
  public boolean stop() {
    while (true) {
      State now = state.get();
      if (now == State.WATCHING) {
        if (state.compareAndSet(State.WATCHING, State.STOPPED)) {
          // Only this watch can be registered now: the connection registers its own interest
          // after the response, which has not begun.
          giveBack.run();
          return false;
        }
      } else if (now == State.READING) {
        Thread.onSpinWait(); // one non-blocking read in progress
      } else {
        return now == State.PIPELINED;
      }
    }
  }

  /** The connection is readable: the end of the stream, a reset, or pipelined bytes. */
  public void readable() {
    if (!state.compareAndSet(State.WATCHING, State.READING)) {
      return;
    }
    int read = readOne.getAsInt();
    if (read < 0) {
      state.set(State.DONE);
      left.run();
    } else if (read == 0) {
      // Woken with nothing to read (a TLS record without data): the watch ends here rather
      // than race the request's resumption for the read interest.
      state.set(State.DONE);
    } else {
      LOG.debug("overload-control: a pipelined request arrived while one was held");
      state.set(State.PIPELINED);
    }
  }

  /** The connection closed or failed (not by {@link #stop}): the client is gone. */
  public void closed() {
    if (state.compareAndSet(State.WATCHING, State.DONE)) {
      left.run();
    }
  }

  @Override
  public String toString() {
    return "overload-control client watch " + state.get();
  }
}
