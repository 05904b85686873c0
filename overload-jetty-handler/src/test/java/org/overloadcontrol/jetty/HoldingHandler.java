package org.overloadcontrol.jetty;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A downstream stub that holds every request it receives until the test releases it, and
 * records the order in which requests reached it (the order the wait queues resumed them).
 */
final class HoldingHandler extends Handler.Abstract {

  private record Held(Response response, Callback callback) {}

  final List<String> arrivals = new CopyOnWriteArrayList<>();
  private final Map<String, Held> held = new ConcurrentHashMap<>();

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String label = request.getHeaders().get("X-Label");
    held.put(label, new Held(response, callback));
    arrivals.add(label);
    return true;
  }

  boolean holds(String label) {
    return held.containsKey(label);
  }

  /** Answers the held request {@code label} with 200. */
  void release(String label) {
    Held h = held.remove(label);
    if (h == null) {
      throw new AssertionError(label + " is not held; arrivals " + arrivals);
    }
    JettyHarness.answer(h.response(), h.callback(), label);
  }
}
