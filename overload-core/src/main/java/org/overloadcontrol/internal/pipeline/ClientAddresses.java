package org.overloadcontrol.internal.pipeline;

/**
 * Who a request came from, as an adapter's {@link RequestView} says it: the peer, or the client
 * a trusted proxy's forwarding headers name ({@code trustedProxies}). Given by {@link
 * RequestPipeline#clients()}, for the configuration in force.
 */
@FunctionalInterface
public interface ClientAddresses {

  /**
   * The client's address.
   *
   * @param peer the connection's peer address
   * @param forwarded the {@code Forwarded} header's values joined by commas, or null
   * @param forwardedFor the {@code X-Forwarded-For} header's values joined by commas, or null
   */
  String resolve(String peer, String forwarded, String forwardedFor);
}
