package org.overloadcontrol.it.serverlog;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * What the server-side log says about one page over a window of arrivals: how many requests
 * came, how many were served, refused or failed otherwise, how many users had left before their
 * response was complete, and the response times (arrival at the container to completion) of the
 * served ones, those whose users had left included: they held the server as long as any.
 *
 * @param page the page's name
 * @param requests requests that arrived in the window
 * @param served answered 2xx or 3xx
 * @param refused answered 503 or 429
 * @param userLeft responses completed after their user had gone (any status)
 * @param servedToPresent served to a user who was still there: the goodput
 * @param servedMicros response times of the served requests, in microseconds
 */
public record PageStats(
    String page,
    long requests,
    long served,
    long refused,
    long userLeft,
    long servedToPresent,
    Histogram servedMicros) {

  /** Requests neither served nor refused (other statuses). */
  public long other() {
    return requests - served - refused;
  }

  /** A percentile of the served requests' response time in milliseconds; NaN if none. */
  public double percentileMillis(double percentile) {
    return servedMicros.getTotalCount() == 0
        ? Double.NaN
        : servedMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  /**
   * Per page (named by {@code pageOf}, which returns null for requests to leave out), the
   * requests that arrived in [{@code fromNanos}, {@code toNanos}), in the order of first
   * appearance of each page name sorted by name; a last entry {@code "all"} sums them.
   */
  public static Map<String, PageStats> byPage(
      Collection<ServedRequest> log,
      Function<String, String> pageOf,
      long fromNanos,
      long toNanos) {
    Map<String, Builder> pages = new TreeMap<>();
    Builder all = new Builder("all");
    for (ServedRequest r : log) {
      if (r.arrivalNanos() - fromNanos < 0 || r.arrivalNanos() - toNanos >= 0) {
        continue;
      }
      String page = pageOf.apply(r.path());
      if (page == null) {
        continue;
      }
      pages.computeIfAbsent(page, Builder::new).add(r);
      all.add(r);
    }
    Map<String, PageStats> out = new LinkedHashMap<>();
    pages.forEach((name, b) -> out.put(name, b.build()));
    out.put("all", all.build());
    return out;
  }

  private static final class Builder {
    final String page;
    long requests;
    long served;
    long refused;
    long userLeft;
    long servedToPresent;
    final Histogram micros = new Histogram(3);

    Builder(String page) {
      this.page = page;
    }

    void add(ServedRequest r) {
      requests++;
      if (r.userLeft()) {
        userLeft++;
      }
      if (r.refused()) {
        refused++;
      } else if (r.served()) {
        served++;
        micros.recordValue(Math.max(1, r.responseNanos() / 1000));
        if (!r.userLeft()) {
          servedToPresent++;
        }
      }
    }

    PageStats build() {
      return new PageStats(page, requests, served, refused, userLeft, servedToPresent, micros);
    }
  }
}
