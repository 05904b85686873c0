package org.overloadcontrol.jetty;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.internal.pipeline.ConnectionWatch;

/**
 * Tells when the client of a held HTTP/1 request closes its connection: Jetty's side of a
 * {@link ConnectionWatch}. Jetty does not read a connection while its request is handled, so a
 * client that leaves goes unnoticed until the response is written (its failure listener hears
 * nothing); this asks the connection's end point to say when it is readable, and reads one byte
 * from it, for the watch to judge.
 */
final class ClientWatch implements Callback {

  private final AbstractEndPoint endPoint;
  private final ConnectionWatch watch;

  private ClientWatch(AbstractEndPoint endPoint, Runnable left) {
    this.endPoint = endPoint;
    this.watch = new ConnectionWatch(this::readOne, this::giveBack, left);
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

  /** See {@link ConnectionWatch#stop}. */
  boolean stop() {
    return watch.stop();
  }

  @Override
  public void succeeded() {
    watch.readable();
  }

  @Override
  public void failed(Throwable x) {
    watch.closed();
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.BLOCKING;
  }

  private int readOne() {
    ByteBuffer one = ByteBuffer.allocate(1);
    one.flip();
    try {
      return endPoint.fill(one);
    } catch (IOException e) {
      return -1; // a reset
    }
  }

  private void giveBack() {
    endPoint.getFillInterest().onFail(new CancellationException("no longer held"));
  }
}
