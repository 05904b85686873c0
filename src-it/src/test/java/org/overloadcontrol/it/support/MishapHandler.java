package org.overloadcontrol.it.support;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.overloadcontrol.OverloadContext;

/**
 * {@link MishapServlet} as a Jetty core handler, for the Jetty handler's side of the adapter
 * contract: {@code ?ms=N} works N ms, {@code ?bytes=N} writes N bytes, {@code ?fail=1} throws;
 * {@code X-Overload-Context} says whether the request was under control; {@code ?id=} values
 * go to {@link MishapServlet#STARTED}.
 */
public class MishapHandler extends Handler.Abstract {

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    MishapServlet.RUNS.incrementAndGet();
    Fields query = Request.extractQueryParameters(request);
    String id = query.getValue("id");
    if (id != null) {
      MishapServlet.STARTED.add(id);
    }
    response
        .getHeaders()
        .put(
            "X-Overload-Context",
            request.getAttribute(OverloadContext.ATTRIBUTE) != null ? "yes" : "no");
    String ms = query.getValue("ms");
    if (ms != null) {
      Thread.sleep(Long.parseLong(ms));
    }
    if (query.getValue("fail") != null) {
      throw new IllegalStateException("the application failed, as asked");
    }
    String b = query.getValue("bytes");
    byte[] body = new byte[b == null ? 2 : Integer.parseInt(b)];
    Arrays.fill(body, (byte) 'o');
    response.getHeaders().put("Content-Type", "text/plain");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
