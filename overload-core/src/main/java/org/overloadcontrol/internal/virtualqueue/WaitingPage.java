package org.overloadcontrol.internal.virtualqueue;

import java.util.List;
import java.util.Map;

/**
 * The virtual queue's answers as text, free of any container type (WebQ §V-A: "the HTTP response
 * contains the meta HTTP refresh header that automatically redirects the client ... after the
 * prescribed wait time").
 *
 * <ul>
 *   <li>{@link #waitingHtml}: for a browser's GET: the wait and position, a countdown (a small
 *       inline script that only updates the number) and a {@code <meta http-equiv=refresh>} that
 *       retries the same URL with the token when the wait is over. One mechanism navigates, so
 *       the token is never presented twice by the page itself.</li>
 *   <li>{@link #repostHtml}: for a browser's form POST: the same page holding the form's fields
 *       in hidden inputs, re-posted to the same URL with the token by the script when the wait
 *       is over (a button without script). A meta refresh would turn the POST into a GET.</li>
 *   <li>{@link #resubmitHtml}: for a POST whose body cannot be carried (a file upload, a body too
 *       large, not a form): says the submission was not sent and when to send it again.</li>
 *   <li>{@link #waitingJson}: for API clients: wait, position, token and the retry URL.</li>
 *   <li>{@link #rejectionHtml} and {@link #rejectionJson}: a refused token or a full queue.</li>
 * </ul>
 *
 * <p>Every value placed in markup is escaped; the token is URL-safe Base64 by construction.
 */
final class WaitingPage {

  private WaitingPage() {}

  /** The browser page for a GET told to wait. */
  public static String waitingHtml(int waitSeconds, long position, String retryUrl) {
    return head(
            "Waiting in line",
            "<meta http-equiv=\"refresh\" content=\""
                + waitSeconds
                + ";url="
                + attr(retryUrl)
                + "\">")
        + "<h1>You are in line</h1>"
        + "<p>The site is busy. Your place is kept: about <strong>"
        + position
        + "</strong> requests are ahead of yours, including it.</p>"
        + countdown(waitSeconds)
        + "<p>If nothing happens, <a href=\""
        + attr(retryUrl)
        + "\">continue</a> when the"
        + " countdown ends.</p>"
        + countdownScript(waitSeconds, null)
        + "</body></html>\n";
  }

  /** The browser page for a form POST told to wait: re-posts the fields when its turn comes. */
  public static String repostHtml(
      int waitSeconds, long position, String actionUrl, List<Map.Entry<String, String>> fields) {
    StringBuilder form =
        new StringBuilder("<form id=\"oc-form\" method=\"post\" action=\"")
            .append(attr(actionUrl))
            .append("\">");
    for (Map.Entry<String, String> f : fields) {
      form.append("<input type=\"hidden\" name=\"")
          .append(attr(f.getKey()))
          .append("\" value=\"")
          .append(attr(f.getValue()))
          .append("\">");
    }
    form.append(
        "<noscript><button type=\"submit\">Send again when the countdown ends"
            + "</button></noscript></form>");
    return head("Waiting in line", "")
        + "<h1>You are in line</h1>"
        + "<p>The site is busy. Your form is kept on this page and is sent when your turn"
        + " comes: about <strong>"
        + position
        + "</strong> requests are ahead of yours,"
        + " including it.</p>"
        + countdown(waitSeconds)
        + form
        + countdownScript(waitSeconds, "oc-form")
        + "</body></html>\n";
  }

  /** The browser page for a POST whose body cannot be kept. */
  public static String resubmitHtml(int waitSeconds) {
    return head("Please send again shortly", "")
        + "<h1>Your submission was not sent yet</h1>"
        + "<p>The site is busy and could not keep what you submitted. Your place in line is"
        + " kept: please go back and submit again in <strong>"
        + waitSeconds
        + "</strong>"
        + (waitSeconds == 1 ? " second" : " seconds")
        + ".</p>"
        + "</body></html>\n";
  }

  /** The JSON body for an API client told to wait. */
  public static String waitingJson(VirtualQueueDecision.Wait wait, String retryUrl) {
    return "{\"status\":\"waiting\",\"waitSeconds\":"
        + wait.waitSeconds()
        + ",\"retryAfterSeconds\":"
        + wait.waitSeconds()
        + ",\"position\":"
        + wait.position()
        + ",\"token\":"
        + json(wait.token())
        + ",\"tokenParameter\":"
        + json(TokenUrls.PARAMETER)
        + ",\"retryUrl\":"
        + json(retryUrl)
        + "}";
  }

  /**
   * The browser page for a refusal.
   *
   * @param rejoinUrl the URL without a token (to join the queue again)
   * @param retryUrl for an early token, the URL with it (refreshed when its slot comes)
   */
  public static String rejectionHtml(
      VirtualQueueDecision.Reject reject, String rejoinUrl, String retryUrl) {
    VirtualQueueRejection reason = reject.reason();
    long retry = reject.retryAfterSeconds();
    if (reason == VirtualQueueRejection.EARLY) {
      return head(
              "Not yet",
              "<meta http-equiv=\"refresh\" content=\"" + retry + ";url=" + attr(retryUrl) + "\">")
          + "<h1>Your turn has not come yet</h1>"
          + countdown(retry)
          + countdownScript(retry, null)
          + "</body></html>\n";
    }
    String next =
        reason == VirtualQueueRejection.QUEUE_FULL
            ? "<p>The line is full. Please <a href=\""
                + attr(rejoinUrl)
                + "\">try again</a> in "
                + retry
                + (retry == 1 ? " second" : " seconds")
                + ".</p>"
            : "<p><a href=\"" + attr(rejoinUrl) + "\">Join the line again</a>.</p>";
    return head("Cannot continue", "")
        + "<h1>We cannot let this request through</h1>"
        + "<p>"
        + text(capitalised(reason.message()))
        + ".</p>"
        + next
        + "</body></html>\n";
  }

  /** The RFC 9457 problem body for a refusal. */
  public static String rejectionJson(
      VirtualQueueDecision.Reject reject, int status, String rejoinUrl) {
    return "{\"type\":\"about:blank\",\"title\":\""
        + (status == 403 ? "Forbidden" : "Service Unavailable")
        + "\",\"status\":"
        + status
        + ",\"detail\":"
        + json(capitalised(reject.reason().message()) + ".")
        + ",\"reason\":"
        + json(reject.reason().code())
        + ",\"retryAfterSeconds\":"
        + reject.retryAfterSeconds()
        + ",\"rejoinUrl\":"
        + json(rejoinUrl)
        + "}";
  }

  private static String head(String title, String extra) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<meta name=\"robots\" content=\"noindex\">"
        + extra
        + "<title>"
        + text(title)
        + "</title>"
        + "<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;"
        + "padding:0 1em;color:#222}#oc-wait{font-size:2em}</style></head><body>";
  }

  private static String countdown(long seconds) {
    return "<p>Your turn comes in <span id=\"oc-wait\">" + seconds + "</span> s.</p>";
  }

  /** Counts down once a second; at zero submits {@code formId} if given (else does nothing). */
  private static String countdownScript(long seconds, String formId) {
    return "<script>(function(){var n="
        + seconds
        + ",e=document.getElementById('oc-wait');"
        + "var t=setInterval(function(){n--;e.textContent=Math.max(n,0);if(n<=0){"
        + "clearInterval(t);"
        + (formId == null ? "" : "document.getElementById('" + formId + "').submit();")
        + "}},1000);})();</script>";
  }

  private static String capitalised(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static String text(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String attr(String s) {
    return text(s);
  }

  static String json(String s) {
    return org.overloadcontrol.internal.engine.JsonText.quote(s);
  }
}
