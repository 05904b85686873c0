package org.overloadcontrol.internal.session;

/**
 * What an adapter reads from a request for session-aware admission.
 *
 * @param cookie the value of the session cookie ({@code sessions.cookie}), or null
 * @param header the value of {@code sessions.header}, or null
 * @param containerSession the container's valid session id when {@code sessions.containerSession}
 *     is on, or null
 * @param path the path inside the application, for {@code sessions.completionPaths}
 * @param dueQueueToken whether the request passed the virtual queue on a token whose time had
 *     come: such a request admits its session (WebQ's wait was the admission)
 */
public record SessionVisit(
    String cookie, String header, String containerSession, String path, boolean dueQueueToken) {}
