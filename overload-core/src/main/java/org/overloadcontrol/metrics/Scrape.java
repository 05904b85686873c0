package org.overloadcontrol.metrics;

import java.io.IOException;
import java.io.OutputStream;

/** The metrics of a {@link MetricsRecorder} in a text exposition format, for a scraper. */
public interface Scrape {

  /** The HTTP content type of the text. */
  String contentType();

  /** Writes every metric now, in UTF-8. */
  void write(OutputStream out) throws IOException;
}
