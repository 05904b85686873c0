package org.overloadcontrol.it.support;

import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.annotation.Endpoint;

/**
 * {@link MishapServlet} as a Jakarta REST resource, for the REST feature's side of the adapter
 * contract: {@code ?ms=N} works N ms, {@code ?bytes=N} writes N bytes, {@code ?fail=1} throws;
 * {@code X-Overload-Context} says whether the request was under control; {@code ?id=} values go
 * to {@link MishapServlet#STARTED}. Its one method is the endpoint {@code work}, as the other
 * adapters' default endpoint.
 */
@Path("work")
public class MishapResource {

  @Context ContainerRequestContext request;

  @GET
  @Endpoint("work")
  public Response work(
      @QueryParam("ms") long ms,
      @QueryParam("bytes") @DefaultValue("2") int bytes,
      @QueryParam("fail") String fail,
      @QueryParam("id") String id)
      throws InterruptedException {
    MishapServlet.RUNS.incrementAndGet();
    if (id != null) {
      MishapServlet.STARTED.add(id);
    }
    String context = request.getProperty(OverloadContext.ATTRIBUTE) != null ? "yes" : "no";
    if (ms > 0) {
      Thread.sleep(ms);
    }
    if (fail != null) {
      throw new IllegalStateException("the application failed, as asked");
    }
    byte[] body = new byte[bytes];
    Arrays.fill(body, (byte) 'o');
    if (bytes >= 2) {
      body[1] = 'k';
    }
    return Response.ok(body, "text/plain").header("X-Overload-Context", context).build();
  }
}
