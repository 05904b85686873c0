package org.overloadcontrol.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * Resource methods of one class that differ in their method annotations, for the filter-only
 * mode: each answers with the endpoint, class and target the engine gave its request, read from
 * the request property the mode sets; {@code slow} holds its permit a while, {@code boom} fails.
 */
@Path("gate")
@RequestClass(value = "browse", rank = 1)
public class GateResource {

  /** How many times {@code slow} ran. */
  static final AtomicInteger SLOW_RUNS = new AtomicInteger();

  @Context ContainerRequestContext request;

  @GET
  @Path("catalogue")
  @Produces(MediaType.TEXT_PLAIN)
  public String catalogue() {
    return describe();
  }

  @GET
  @Path("search")
  @Produces(MediaType.TEXT_PLAIN)
  @ResponseTimeTarget("2s")
  public String search() {
    return describe();
  }

  @POST
  @Path("orders")
  @Produces(MediaType.TEXT_PLAIN)
  @ResponseTimeTarget("1ms")
  @RequestClass(value = "order", rank = 5, kind = RequestKind.TRANSACTION)
  public String order() {
    return describe();
  }

  @GET
  @Path("slow")
  @Produces(MediaType.TEXT_PLAIN)
  @RequestClass(value = "slow", rank = 2)
  public String slow() throws InterruptedException {
    SLOW_RUNS.incrementAndGet();
    Thread.sleep(150);
    return describe();
  }

  @GET
  @Path("boom")
  @Produces(MediaType.TEXT_PLAIN)
  public String boom() {
    throw new IllegalStateException("boom");
  }

  private String describe() {
    OverloadContext ctx = (OverloadContext) request.getProperty(OverloadContext.ATTRIBUTE);
    return ctx.endpoint() + " " + ctx.requestClass() + " " + ctx.target().orElse(null);
  }
}
