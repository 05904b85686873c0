package org.overloadcontrol.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.session.SessionGate;
import org.overloadcontrol.session.SessionSettings;
import org.overloadcontrol.session.SessionVisit;

/**
 * Translates a servlet request for the engine's session-aware admission: reads the session
 * cookie, header and container session id, and sets the signed cookie of a session admitted
 * now. The decisions are the engine's ({@link SessionGate}).
 */
final class SessionStep {

  private SessionStep() {}

  /** Whether the request is refused as a new session (the tag says why). */
  static boolean refused(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, RequestTag tag) {
    SessionSettings s = engine.sessions().settings();
    String cookie = null;
    Cookie[] cookies = request.getCookies();
    if (cookies != null) {
      for (Cookie c : cookies) {
        if (c.getName().equals(s.cookieName())) {
          cookie = c.getValue();
          break;
        }
      }
    }
    String container = s.containerSession() && request.isRequestedSessionIdValid()
        ? request.getRequestedSessionId() : null;
    SessionGate.Answer answer = engine.admitSession(tag, new SessionVisit(cookie,
        s.header() == null ? null : request.getHeader(s.header()), container,
        ServletRequestAttributes.pathOf(request),
        request.getAttribute(VirtualQueueGate.BY_TOKEN_ATTRIBUTE) != null));
    if (answer.setCookie() != null) {
      String path = request.getContextPath().isEmpty() ? "/" : request.getContextPath();
      // A session cookie (no Max-Age): the table's idle and lifetime bounds are the real ones.
      response.addHeader("Set-Cookie", s.cookieName() + "=" + answer.setCookie() + "; Path="
          + path + "; HttpOnly; SameSite=Lax" + (request.isSecure() ? "; Secure" : ""));
    }
    return answer.refused();
  }
}
