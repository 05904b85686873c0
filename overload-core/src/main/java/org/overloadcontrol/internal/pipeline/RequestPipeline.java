package org.overloadcontrol.internal.pipeline;

import java.time.Clock;
import java.util.Objects;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestIntake;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.engine.Routes;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.session.SessionGate;
import org.overloadcontrol.internal.session.SessionSettings;
import org.overloadcontrol.internal.session.SessionVisit;
import org.overloadcontrol.internal.virtualqueue.TokenCookie;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueFrontEnd;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueVisit;
import org.overloadcontrol.internal.virtualqueue.VisitVerdict;

/**
 * The request life cycle, once, for every adapter (docs/design.md): {@link #start} takes a
 * container-free {@link RequestView} and returns the request's {@link Exchange}, whose
 * {@link Exchange#step()} says what the adapter does first. In order:
 * <ol>
 *   <li>a bypass path (a probe) passes, uncontrolled;</li>
 *   <li>the request is tagged: arrival time, endpoint and class (Welsh &amp; Culler 2003 §3);</li>
 *   <li>the virtual queue (WebQ, Suresh et al. §II-C): a known wait or a refusal is an
 *       {@code ANSWER}, settled {@code REDIRECTED} or {@code REJECTED};</li>
 *   <li>session-aware admission (Cherkasova &amp; Phaal §4): a new session's first request is
 *       the one refused ({@code REJECT});</li>
 *   <li>bandwidth shares (Li &amp; Jamin §V): a group over its share is refused (an
 *       {@code ANSWER}, 429 or 403) or delayed ({@code DELAY}), then goes on to admission;</li>
 *   <li>admission and the wait queues (LIFO-Pri, Singhmar et al. 2004): {@code RUN},
 *       {@code WAIT} or {@code REJECT}.</li>
 * </ol>
 * The adapter carries out the step with its container's primitives and reports the end with
 * {@link Exchange#settle}, once.
 *
 * <p>Thread-safety: {@link #start} is called on the request's thread, concurrently for many
 * requests; it holds no state of its own.
 */
public final class RequestPipeline {

  private final OverloadRuntime runtime;
  private final OverloadEngine engine;
  private final Routes routes;
  private final RequestIntake intake;
  private final VirtualQueueFrontEnd virtualQueue;
  private final BandwidthShaper bandwidth;
  private final boolean trustsProxies;
  private final ClientAddresses clients;

  /** The pipeline over one generation of {@code runtime}'s parts (see {@link OverloadRuntime}). */
  RequestPipeline(
      OverloadRuntime runtime,
      OverloadEngine engine,
      VirtualQueueFrontEnd virtualQueue,
      BandwidthShaper bandwidth,
      Clock wallClock) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.routes = engine.routes();
    this.intake = RequestIntake.of(engine, wallClock);
    this.virtualQueue = Objects.requireNonNull(virtualQueue, "virtualQueue");
    this.bandwidth = bandwidth;
    this.trustsProxies = intake.clients().trustsAnyProxy();
    this.clients = intake.clients()::resolve;
  }

  /** The client-address resolver an adapter's view uses (the trusted proxies). */
  public ClientAddresses clients() {
    return clients;
  }

  /** The engine of this pipeline's generation. */
  OverloadEngine engine() {
    return engine;
  }

  /**
   * Starts a request whose endpoint is the first {@code endpoints.<e>.paths} rule that matches,
   * else {@code defaultEndpoint} (its servlet's endpoint, or the handler's default).
   */
  public Exchange start(RequestView view, String defaultEndpoint) {
    if (routes.bypasses(view.path())) {
      return Exchange.PASSING;
    }
    return controlled(view, intake.tag(defaultEndpoint, peer(view), view));
  }

  /**
   * Starts a request whose endpoint and class the adapter resolved in advance (when
   * {@link Routes#routesByEndpointOnly()}, once per servlet).
   */
  public Exchange start(RequestView view, EndpointClass route) {
    if (routes.bypasses(view.path())) {
      return Exchange.PASSING;
    }
    String peer = peer(view);
    return controlled(view, intake.tag(route, peer, peer == null ? null : view));
  }

  /**
   * Starts a request by a framework's routes, when {@link Routes#routesByFrameworkOnly()}:
   * one walk over its path gives its endpoint and class and, for a route whose paths cannot be
   * probe paths, settles the bypass check too. Null when no route takes the request: the adapter
   * then starts it with its own endpoint's route ({@link #start(RequestView, EndpointClass)}).
   */
  public Exchange startByFramework(RequestView view) {
    String path = view.path();
    int route = routes.frameworkRouteOf(view.method(), path);
    if (route < 0) {
      return null;
    }
    if (routes.bypassable(route) && routes.bypasses(path)) {
      return Exchange.PASSING;
    }
    String peer = peer(view);
    return controlled(
        view, intake.tag(routes.frameworkRoute(route), peer, peer == null ? null : view));
  }

  private String peer(RequestView view) {
    // The peer address costs a new string per call in some containers: read only when a
    // trusted proxy could make it matter.
    return trustsProxies ? view.peerAddress() : null;
  }

  private Exchange controlled(RequestView view, RequestTag tag) {
    Exchange exchange = new Exchange(engine, tag, virtualQueue, runtime);
    boolean dueToken = false;
    if (virtualQueue.protects(view.path())) {
      VisitVerdict verdict = virtualQueue.visit(visit(view));
      if (!(verdict instanceof VisitVerdict.Pass pass)) {
        VisitVerdict.Stop stop = (VisitVerdict.Stop) verdict;
        VirtualQueueVisit visit = visit(view);
        if (virtualQueue.keepsForm(visit, stop)) {
          // The adapter reads the body its own way (Jetty without blocking a thread) and asks
          // for the page holding it; this answer (send the form again) is its fallback.
          exchange.keepForm(virtualQueue, visit, stop);
        }
        return exchange.first(
            Step.answer(
                virtualQueue.answer(visit, stop, null),
                stop.waiting() ? Outcome.REDIRECTED : Outcome.REJECTED));
      }
      if (pass.clearCookie() != null) {
        exchange.setCookie(pass.clearCookie().setCookie());
      }
      exchange.passedQueue(pass.type());
      dueToken = pass.byToken();
    }
    if (engine.sessions() != null && rejectedAsNewSession(view, tag, exchange, dueToken)) {
      return exchange.first(Step.REJECTED);
    }
    if (bandwidth != null && bandwidth.shapes(view.path())) {
      ShapingDecision shaping = bandwidth.decide(view, view.declaredResponseSize());
      if (shaping.kind() == ShapingDecision.Kind.REJECT) {
        return exchange.first(
            Step.answer(
                shaping.rejection(view.header("Accept"), view.requestUri()), Outcome.REJECTED));
      }
      exchange.shaped(shaping.ticket());
      if (shaping.kind() == ShapingDecision.Kind.DELAY) {
        if (!view.canSuspend()) {
          // Nothing can hold it without a thread: refused as a group whose standby is full.
          ShapingDecision rejection =
              new ShapingDecision(
                  ShapingDecision.Kind.REJECT,
                  0,
                  429,
                  shaping.delayNanos(),
                  ShapingDecision.STANDBY_FULL,
                  shaping.ticket());
          return exchange.first(
              Step.answer(
                  rejection.rejection(view.header("Accept"), view.requestUri()), Outcome.REJECTED));
        }
        exchange.delayFor(shaping);
        return exchange.first(Step.DELAY);
      }
    }
    return exchange.first(admit(exchange, view.canSuspend()));
  }

  /** Admission on the request's thread: run, wait (held, or on this thread) or refuse. */
  private Step admit(Exchange exchange, boolean canSuspend) {
    RequestTag tag = exchange.tag();
    switch (engine.arrive(tag)) {
      case ADMIT:
        return Step.RUN;
      case REJECT:
        return Step.REJECTED;
      default:
        break;
    }
    if (canSuspend) {
      return Step.WAIT;
    }
    if (engine.queueSettings().nonAsync() == QueueSettings.NonAsync.REJECT) {
      engine.reject(tag, RejectionReason.NO_ASYNC);
      return Step.REJECTED;
    }
    BlockingWait wait = new BlockingWait();
    if (!engine.enqueue(tag, wait)) {
      return Step.REJECTED;
    }
    return wait.await(engine, tag) ? Step.RUN : Step.EXPIRED;
  }

  private static VirtualQueueVisit visit(RequestView view) {
    return new VirtualQueueVisit(
        view.clientAddress(),
        view.path(),
        view.requestUri(),
        view.rawQuery(),
        view.method(),
        view.header("Accept"),
        view.header("Content-Type"),
        view.contentLength(),
        view.cookie(TokenCookie.NAME),
        view.secure());
  }

  private boolean rejectedAsNewSession(
      RequestView view, RequestTag tag, Exchange exchange, boolean dueToken) {
    SessionSettings s = engine.sessions().settings();
    SessionGate.Answer answer =
        engine.admitSession(
            tag,
            new SessionVisit(
                view.cookie(s.cookieName()),
                s.header() == null ? null : view.header(s.header()),
                s.containerSession() ? view.containerSessionId() : null,
                view.path(),
                dueToken));
    if (answer.setCookie() != null) {
      exchange.setCookie(
          SetCookie.session(s.cookieName(), answer.setCookie(), view.contextPath(), view.secure()));
    }
    return answer.rejected();
  }
}
