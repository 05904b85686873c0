package org.overloadcontrol.jetty;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.base.OverloadLog;

/**
 * Tells when the client of a held HTTP/1 request closes its connection. Jetty does not read a
 * connection while its request is handled, so a client that leaves goes unnoticed until the
 * response is written (its failure listener hears nothing). A request without a body has been
 * read to its end, so the only bytes that can arrive on its connection before its response are
 * the end of the stream (the client closed or reset it) or, rarely, a pipelined next request:
 * the watch asks the connection's end point to say when it is readable and reads one byte.
 *
 * <p>The watch owns the end point's read interest only while the request is held: {@link #stop}
 * gives it back before the request runs or is answered, so that the connection reads its next
 * request as usual. A byte of a pipelined request cannot be given back; the response then says
 * {@code Connection: close}, and the client sends that request again on a new connection, as
 * HTTP/1.1 clients do for pipelined requests left unanswered.
 */
final class ClientWatch implements Callback {

  private static final OverloadLog LOG = OverloadLog.get(ClientWatch.class);

  private enum State {
    WATCHING,
    STOPPED,
    READING,
    DONE,
    PIPELINED
  }

  private final AbstractEndPoint endPoint;
  private final Runnable left;
  private final AtomicReference<State> state = new AtomicReference<>(State.WATCHING);

  private ClientWatch(AbstractEndPoint endPoint, Runnable left) {
    this.endPoint = endPoint;
    this.left = left;
  }

  /**
   * Watches the connection of {@code request} for its client closing it, calling {@code left}
   * once if it does. Returns null, watching nothing, when the request may still have a body to
   * read (its bytes belong to the application), is not HTTP/1, or someone else reads the
   * connection already (HTTP/2 and HTTP/3 tell a stream's end to the failure listeners).
   */
  static ClientWatch start(Request request, Runnable left) {
    HttpVersion version = request.getConnectionMetaData().getHttpVersion();
    if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
      return null;
    }
    if (request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING) || request.getLength() > 0) {
      return null;
    }
    Connection connection = request.getConnectionMetaData().getConnection();
    if (connection == null || !(connection.getEndPoint() instanceof AbstractEndPoint endPoint)) {
      return null;
    }
    ClientWatch watch = new ClientWatch(endPoint, left);
    return endPoint.tryFillInterested(watch) ? watch : null;
  }

  /**
   * Gives the read interest back to the connection; call before the request runs or is
   * answered, on any thread but {@code left}'s.
   *
   * @return whether a byte of a pipelined request was read, so the response must close the
   *     connection
   */
  boolean stop() {
    while (true) {
      State now = state.get();
      if (now == State.WATCHING) {
        if (state.compareAndSet(State.WATCHING, State.STOPPED)) {
          // Only this watch can be registered now: the connection registers its own interest
          // after the response, which has not begun.
          endPoint.getFillInterest().onFail(new CancellationException("no longer held"));
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
  @Override
  public void succeeded() {
    if (!state.compareAndSet(State.WATCHING, State.READING)) {
      return;
    }
    ByteBuffer one = ByteBuffer.allocate(1);
    one.flip();
    int read;
    try {
      read = endPoint.fill(one);
    } catch (IOException e) {
      read = -1;
    }
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

  /** The end point closed or failed (not by {@link #stop}): the client is gone. */
  @Override
  public void failed(Throwable x) {
    if (state.compareAndSet(State.WATCHING, State.DONE)) {
      left.run();
    }
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.BLOCKING;
  }
}
