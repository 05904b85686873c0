package org.overloadcontrol.rest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.servlet.Overload;

/**
 * Two resource methods of one class that differ only in their method annotations: each answers
 * with the endpoint, class and target the filter gave its request.
 */
@Path("shop")
@RequestClass(value = "browse", rank = 1)
public class ShopResource {

  @Context HttpServletRequest request;

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

  private String describe() {
    OverloadContext ctx = Overload.context(request).orElseThrow();
    return ctx.endpoint() + " " + ctx.requestClass() + " " + ctx.target().orElse(null);
  }
}
