package org.overloadcontrol.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports on 127.0.0.1 that the operating system picked, for what must be told its port before it
 * binds (a cluster member listed in the others' {@code cluster.members}, a balancer's frontend).
 */
public final class FreePorts {

  private FreePorts() {}

  /** {@code n} distinct ports, free when this returns. */
  public static int[] loopback(int n) throws IOException {
    int[] ports = new int[n];
    List<ServerSocket> open = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        open.add(s);
        ports[i] = s.getLocalPort();
      }
    } finally {
      for (ServerSocket s : open) {
        s.close();
      }
    }
    return ports;
  }
}
