package org.overloadcontrol.internal.virtualqueue;

/**
 * What {@link VirtualQueueFrontEnd#visit} made of one request: it may go on ({@link Pass}), or
 * it stops here ({@link Stop}) and the adapter writes {@link VirtualQueueFrontEnd#answer}.
 */
public sealed interface VisitVerdict {

  /** A request to a path the queue does not protect (or the queue is off): nothing to do. */
  Pass UNPROTECTED = new Pass(null, null, false);

  /**
   * The request goes on.
   *
   * @param type its virtual-queue type, to report its completion with
   *     ({@link VirtualQueueFrontEnd#complete}); null when the path is not protected
   * @param clearCookie a cookie to set that deletes a token cookie just used, or null
   * @param byToken whether it passed on a token whose time had come (it admits its session)
   */
  record Pass(String type, TokenCookie clearCookie, boolean byToken) implements VisitVerdict {

    /** Whether the request passed the queue (its completion feeds the capacity estimate). */
    public boolean protectedPath() {
      return type != null;
    }
  }

  /**
   * The request was told to wait or refused.
   *
   * @param decision the queue's {@link VirtualQueueDecision.Wait} or
   *     {@link VirtualQueueDecision.Reject}
   * @param boundUrl the raw URL without the token, the one tokens are bound to
   * @param token the token the request presented, or null
   */
  record Stop(VirtualQueueDecision decision, String boundUrl, String token)
      implements VisitVerdict {

    /** True when told to wait (outcome {@code REDIRECTED}), false when refused. */
    public boolean waiting() {
      return decision instanceof VirtualQueueDecision.Wait;
    }
  }
}
