package org.overloadcontrol.virtualqueue;

/**
 * The virtual queue's answer to a request that may not go on yet, free of any container type:
 * the adapter writes {@link #status()}, {@code Cache-Control: no-store}, a {@code Retry-After}
 * header when {@link #retryAfterSeconds()} is positive, the {@link #cookie()} if any, and the
 * body. {@link #waiting()} says whether the request was told to wait (its outcome is
 * {@code REDIRECTED}) or refused ({@code REJECTED}).
 *
 * @param waiting true when the request was told to wait, false when refused
 * @param status the HTTP status (200 waiting page, 503 wait or busy, 403 bad token)
 * @param retryAfterSeconds the {@code Retry-After} value, or 0 for none
 * @param cookie the token cookie to set, or null
 * @param contentType the body's media type
 * @param body the body, UTF-8
 */
public record QueueAnswer(boolean waiting, int status, long retryAfterSeconds,
    TokenCookie cookie, String contentType, byte[] body) {

  /** The {@code Cache-Control} value of every answer: a waiting page is personal and brief. */
  public static final String CACHE_CONTROL = "no-store";
}
