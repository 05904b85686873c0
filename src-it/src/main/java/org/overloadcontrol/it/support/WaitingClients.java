package org.overloadcontrol.it.support;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Clients that send a GET and then leave while it waits, as the tests of disconnected waiters
 * need them: raw HTTP/1.1 connections, one request each, closed by the test with a FIN or a
 * reset (RST) as a client that gave up.
 */
public final class WaitingClients {

  private WaitingClients() {}

  /** Opens {@code count} connections, each sending one GET of {@code uri.apply(i)}. */
  public static List<Socket> open(int count, IntFunction<URI> uri) throws IOException {
    List<Socket> sockets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      URI u = uri.apply(i);
      Socket socket = new Socket(u.getHost(), u.getPort());
      socket
          .getOutputStream()
          .write(
              ("GET "
                      + u.getRawPath()
                      + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery())
                      + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      sockets.add(socket);
    }
    return sockets;
  }

  /** Closes every connection, with a reset (RST) where {@code reset} holds for its index. */
  public static void close(List<Socket> sockets, IntPredicate reset) throws IOException {
    for (int i = 0; i < sockets.size(); i++) {
      if (reset.test(i)) {
        sockets.get(i).setSoLinger(true, 0);
      }
      sockets.get(i).close();
    }
  }
}
