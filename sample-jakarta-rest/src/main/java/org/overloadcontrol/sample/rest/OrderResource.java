package org.overloadcontrol.sample.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;

/**
 * README's Jakarta REST resource: each method is an endpoint of the overload filter
 * ({@code OrderResource#order}, {@code OrderResource#status}), with the targets and classes of
 * its annotations.
 */
// snippet-start jakarta-rest-resource
@Path("orders")
public class OrderResource {
  @POST
  @ResponseTimeTarget("1500ms")
  @RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION)
  public String order(String cart) {
    return "ordered: " + cart;
  }

  @GET
  @Path("{id}")
  @ResponseTimeTarget("300ms")
  public String status(@PathParam("id") String id) {
    return "order " + id + ": shipped";
  }
}
// snippet-end jakarta-rest-resource
