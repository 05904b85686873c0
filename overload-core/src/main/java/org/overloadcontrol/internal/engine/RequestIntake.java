package org.overloadcontrol.internal.engine;

import java.time.Clock;
import java.util.Objects;
import org.overloadcontrol.internal.classify.ArrivalTime;
import org.overloadcontrol.internal.classify.ClientAddressResolver;
import org.overloadcontrol.internal.classify.RequestAttributes;

/**
 * Step 1 of the request life cycle (docs/design.md), the same for every adapter: stamp the arrival
 * time, route the request to its endpoint and class, and tag it.
 *
 * <p>The arrival is "now" on the engine's ticker, unless the connection comes from a trusted
 * proxy that sent its own receive time ({@code requestStart.header}): then the response time
 * the controllers see includes the time the request queued in front of the server (Welsh &amp;
 * Culler 2003 measure response time from the client's side of the server's queue, §3.2).
 * A header from any other peer is ignored, so a client cannot make its requests look old.
 */
public final class RequestIntake {

  private final OverloadEngine engine;
  private final Routes routes;
  private final ClientAddressResolver clients;
  private final ArrivalTime arrivalTime;
  private final String requestStartHeader;

  public RequestIntake(
      OverloadEngine engine, ClientAddressResolver clients, ArrivalTime arrivalTime) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.routes = engine.routes();
    this.clients = Objects.requireNonNull(clients, "clients");
    this.arrivalTime = Objects.requireNonNull(arrivalTime, "arrivalTime");
    this.requestStartHeader = engine.config().requestStartHeader();
  }

  /** An intake for {@code engine} with its configured trusted proxies and the wall clock. */
  public static RequestIntake of(OverloadEngine engine, Clock wallClock) {
    return new RequestIntake(
        engine,
        new ClientAddressResolver(engine.config().trustedProxies()),
        new ArrivalTime(engine.ticker(), wallClock, engine.config().requestStartMaxAgeNanos()));
  }

  /** The resolver of client addresses behind the configured trusted proxies. */
  public ClientAddressResolver clients() {
    return clients;
  }

  /**
   * Tags a request that has just arrived.
   *
   * @param defaultEndpoint the endpoint when no path rule names one (servlet name, or the
   *     Jetty handler's configured default)
   * @param remoteAddress the connection's peer address; may be null when
   *     {@link ClientAddressResolver#trustsAnyProxy()} is false (it is only compared with the
   *     trusted proxies)
   * @param attributes the request as the classification rules see it
   */
  public RequestTag tag(
      String defaultEndpoint, String remoteAddress, RequestAttributes attributes) {
    long now = engine.ticker().read();
    return engine.tag(
        routes.route(defaultEndpoint, attributes), arrival(now, remoteAddress, attributes), now);
  }

  /**
   * Tags a request whose endpoint and class the adapter already knows: when
   * {@link Routes#routesByEndpointOnly()}, an adapter can resolve each of its
   * servlets or handlers once with {@link Routes#route}.
   *
   * @param remoteAddress as for {@link #tag(String, String, RequestAttributes)}
   * @param attributes read only for the request-start header of a trusted proxy: may be null
   *     when {@code remoteAddress} is
   */
  public RequestTag tag(EndpointClass route, String remoteAddress, RequestAttributes attributes) {
    long now = engine.ticker().read();
    return engine.tag(route, arrival(now, remoteAddress, attributes), now);
  }

  private long arrival(long now, String remoteAddress, RequestAttributes attributes) {
    if (remoteAddress != null && clients.isTrustedProxy(remoteAddress)) {
      return arrivalTime.arrival(now, attributes.header(requestStartHeader));
    }
    return now;
  }
}
