package org.overloadcontrol.it.support;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * What the containers log while it is open: every {@code java.util.logging} record (Tomcat logs
 * there; a record reads "JUL logger LEVEL: message", its message only, not the stack trace of a
 * thrown exception) and every line written to {@code System.err} (slf4j-simple, through which
 * Jetty and the filter log in these tests, writes there; the lines still reach the console).
 */
public final class LogCapture implements AutoCloseable {

  /** Lines of the containers' log of a web application: what ServletContext.log writes. */
  private static final Pattern CONTAINER_CONTEXT_LOG =
      Pattern.compile(
          "^JUL org\\.apache\\.catalina\\.core\\.ContainerBase\\.\\S+ \\w+: "
              + "|\\bINFO org\\.eclipse\\.jetty\\.\\S*ContextHandler\\S* - ");

  private final List<String> lines = new ArrayList<>();
  private final Logger root = Logger.getLogger("");
  private final Handler handler;
  private final PrintStream savedErr;

  public LogCapture() {
    handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            add("JUL " + r.getLoggerName() + " " + r.getLevel() + ": " + r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    handler.setLevel(Level.ALL);
    root.addHandler(handler);
    savedErr = System.err;
    System.setErr(new PrintStream(new LineTee(savedErr), true, StandardCharsets.UTF_8));
  }

  private void add(String line) {
    synchronized (lines) {
      lines.add(line);
    }
  }

  /** Everything captured so far. */
  public List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** The captured lines that the container's log of a web application holds. */
  public List<String> containerContextLog() {
    return lines().stream().filter(l -> CONTAINER_CONTEXT_LOG.matcher(l).find()).toList();
  }

  @Override
  public void close() {
    root.removeHandler(handler);
    System.err.flush();
    System.setErr(savedErr);
  }

  /** Passes bytes on and keeps each complete line. */
  private final class LineTee extends OutputStream {
    private final OutputStream out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineTee(OutputStream out) {
      this.out = out;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        add(line.toString(StandardCharsets.UTF_8).stripTrailing());
        line.reset();
      } else {
        line.write(b);
      }
      ((PrintStream) out).write(b);
    }

    @Override
    public synchronized void flush() {
      ((PrintStream) out).flush();
    }
  }
}
