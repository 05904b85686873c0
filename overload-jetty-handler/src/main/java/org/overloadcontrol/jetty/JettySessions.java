package org.overloadcontrol.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.session.SessionGate;
import org.overloadcontrol.session.SessionSettings;
import org.overloadcontrol.session.SessionVisit;

/**
 * Translates a Jetty core request for the engine's session-aware admission: reads the session
 * cookie and header, and sets the signed cookie of a session admitted now (core Jetty has no
 * container session, so {@code sessions.containerSession} finds none here).
 */
final class JettySessions {

  private JettySessions() {}

  /** Whether the request is refused as a new session (the tag says why). */
  static boolean refused(OverloadEngine engine, Request request, Response response,
      JettyRequestAttributes attributes, RequestTag tag, boolean dueQueueToken) {
    SessionSettings s = engine.sessions().settings();
    SessionGate.Answer answer = engine.admitSession(tag, new SessionVisit(
        attributes.cookie(s.cookieName()),
        s.header() == null ? null : request.getHeaders().get(s.header()), null,
        attributes.path(), dueQueueToken));
    if (answer.setCookie() != null) {
      String context = Request.getContextPath(request);
      response.getHeaders().add(HttpHeader.SET_COOKIE, s.cookieName() + "="
          + answer.setCookie() + "; Path=" + (context == null || context.isEmpty() ? "/" : context)
          + "; HttpOnly; SameSite=Lax" + (request.isSecure() ? "; Secure" : ""));
    }
    return answer.refused();
  }
}
