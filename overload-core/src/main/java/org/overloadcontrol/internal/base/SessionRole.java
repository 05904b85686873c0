package org.overloadcontrol.internal.base;

/**
 * What a request is to session-aware admission (Cherkasova &amp; Phaal 2002, §3: a session is
 * admitted as a whole, at its first request): not under session control, the first request of a
 * session admitted just now, or a later request of an admitted session, which goes before new
 * sessions' requests of its class in the wait queues.
 */
public enum SessionRole {
  /** Sessions are off, or the request's endpoint has no concurrency limit. */
  NONE,
  /** The first request of a session admitted on this request. */
  NEW,
  /** A request of a session admitted earlier. */
  ADMITTED
}
