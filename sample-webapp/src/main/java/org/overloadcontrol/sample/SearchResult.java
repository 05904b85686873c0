package org.overloadcontrol.sample;

import java.util.List;

/**
 * What a search found and how much of it is shown. At a quality below 1.0 the shop shows only
 * the first part of the matches, the degraded search of Welsh &amp; Culler 2003 §4.5 (less work
 * and a smaller page per request), and says so on the page.
 *
 * @param query the text searched for, trimmed
 * @param shown the matches on the page, best first
 * @param matchCount how many products matched in all
 */
public record SearchResult(String query, List<Product> shown, int matchCount) {

  public SearchResult {
    shown = List.copyOf(shown);
    if (shown.size() > matchCount) {
      throw new IllegalArgumentException(
          "shows " + shown.size() + " of only " + matchCount + " matches");
    }
  }

  /** True when some matches were left out because the page was served at reduced quality. */
  public boolean degraded() {
    return shown.size() < matchCount;
  }
}
