package org.overloadcontrol.it.serverlog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.catalina.AccessLog;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.eclipse.jetty.server.RequestLog;

/**
 * The experiments' server-side request log, outside every library under test: one
 * {@link ServedRequest} per request, from its arrival at the container to the completion of its
 * response, with its path, status and whether its user had already left. It hangs on the
 * container itself (Jetty's {@link RequestLog} on the {@code Server}, Tomcat's
 * {@link AccessLog} valve on the engine), so it sees every request whatever guards the
 * application (our filter, Jetty's {@code QoSHandler}, a concurrency-limit filter, nothing),
 * refusals included, and times them all the same way: a filter's own measurement starts when
 * the filter runs and cannot see a request refused before it.
 *
 * <p>Whether a user left: the load generator's users send the time they will give up in
 * {@link #GIVES_UP_HEADER} ({@link System#nanoTime()}, which the generator and the server share
 * in one JVM); a response completed after it, or one the container failed to deliver, was for
 * nobody. The container alone cannot always tell: a response written into a socket whose client
 * has just closed often "succeeds".
 */
public final class ServerRequestLog {

  /** Request header: the {@link System#nanoTime()} at which the sending user gives up. */
  public static final String GIVES_UP_HEADER = "X-Client-Gives-Up-Nanos";

  private static final String CSV_HEADER =
      "arrival_ns,completion_ns,path,status,failed,gives_up_ns,waited_ns,rejection";

  /**
   * The request attribute under which a refusal hook may leave why it refused (a {@code
   * RejectionReason} code, e.g. {@code queue-full}), for the log's {@code rejection} column: the
   * experiments' {@link ReasonTellingRejectionHandler} does.
   */
  public static final String REJECTION_ATTRIBUTE = "org.overloadcontrol.it.rejection";

  /** The request attribute under which our filter leaves its {@code OverloadContext}. */
  private static final String OVERLOAD_CONTEXT = "org.overloadcontrol.OverloadContext";

  private final ConcurrentLinkedQueue<ServedRequest> entries = new ConcurrentLinkedQueue<>();

  /** Records one request. */
  public void record(ServedRequest request) {
    entries.add(request);
  }

  /** Everything recorded so far, in completion order. */
  public List<ServedRequest> entries() {
    return List.copyOf(entries);
  }

  /** Forgets everything recorded (e.g. the calibration before a run). */
  public void clear() {
    entries.clear();
  }

  /** The log as a Jetty 12 {@link RequestLog}, for {@code Server.setRequestLog}. */
  public RequestLog jetty() {
    return (request, response) -> {
      long now = System.nanoTime();
      record(
          new ServedRequest(
              request.getBeginNanoTime(),
              now,
              request.getHttpURI().getPath(),
              response.getStatus(),
              !response.isCompletedSuccessfully(),
              givesUp(request.getHeaders().get(GIVES_UP_HEADER)),
              waited(request.getAttribute(OVERLOAD_CONTEXT)),
              rejection(request.getAttribute(REJECTION_ATTRIBUTE))));
    };
  }

  /** The log as a Tomcat valve, for the engine's pipeline. */
  public ValveBase tomcat() {
    return new TomcatValve(this);
  }

  /** Tomcat calls {@link AccessLog#log} once a request's response is complete. */
  private static final class TomcatValve extends ValveBase implements AccessLog {
    private final ServerRequestLog log;

    TomcatValve(ServerRequestLog log) {
      super(true);
      this.log = log;
    }

    @Override
    public void invoke(Request request, Response response)
        throws IOException, jakarta.servlet.ServletException {
      getNext().invoke(request, response);
    }

    @Override
    public void log(Request request, Response response, long time) {
      long now = System.nanoTime();
      org.apache.coyote.Response coyote = response.getCoyoteResponse();
      log.record(
          new ServedRequest(
              request.getCoyoteRequest().getStartTimeNanos(),
              now,
              request.getRequestURI(),
              response.getStatus(),
              coyote.isExceptionPresent(),
              givesUp(request.getHeader(GIVES_UP_HEADER)),
              waited(request.getAttribute(OVERLOAD_CONTEXT)),
              rejection(request.getAttribute(REJECTION_ATTRIBUTE))));
    }

    @Override
    public void setRequestAttributesEnabled(boolean enabled) {
      // Nothing read from request attributes.
    }

    @Override
    public boolean getRequestAttributesEnabled() {
      return false;
    }
  }

  /**
   * Our filter's own account of the request's queue wait, read by reflection: the filter's
   * classes live in the web application's class loader. {@link ServedRequest#NOT_TOLD} when no
   * filter of ours saw the request.
   */
  static long waited(Object overloadContext) {
    if (overloadContext == null) {
      return ServedRequest.NOT_TOLD;
    }
    try {
      Object d = overloadContext.getClass().getMethod("waited").invoke(overloadContext);
      return d instanceof java.time.Duration w ? w.toNanos() : ServedRequest.NOT_TOLD;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return ServedRequest.NOT_TOLD;
    }
  }

  static String rejection(Object attribute) {
    return attribute instanceof String code && !code.isEmpty() ? code : null;
  }

  static long givesUp(String header) {
    if (header == null || header.isEmpty()) {
      return ServedRequest.NO_DEADLINE;
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return ServedRequest.NO_DEADLINE;
    }
  }

  /** Writes {@code requests} as CSV (one line each, the header first). */
  public static void writeCsv(Path file, List<ServedRequest> requests) {
    StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
    for (ServedRequest r : requests) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%d,%s,%d,%b,%s,%s,%s%n",
              r.arrivalNanos(),
              r.completionNanos(),
              r.path().replace(",", "%2C"),
              r.status(),
              r.failed(),
              r.givesUpNanos() == ServedRequest.NO_DEADLINE ? "" : Long.toString(r.givesUpNanos()),
              r.waitedNanos() == ServedRequest.NOT_TOLD ? "" : Long.toString(r.waitedNanos()),
              r.rejection() == null ? "" : r.rejection()));
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, csv);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads what {@link #writeCsv} wrote. */
  public static List<ServedRequest> readCsv(List<String> lines) {
    if (lines.isEmpty() || !lines.get(0).equals(CSV_HEADER)) {
      throw new IllegalArgumentException(
          "not a server request log: the first line must be '" + CSV_HEADER + "'");
    }
    List<ServedRequest> out = new ArrayList<>(lines.size() - 1);
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length != 8) {
        throw new IllegalArgumentException(
            "line " + (i + 1) + ": expected 8 fields, got " + f.length + ": '" + line + "'");
      }
      out.add(
          new ServedRequest(
              Long.parseLong(f[0]),
              Long.parseLong(f[1]),
              f[2],
              Integer.parseInt(f[3]),
              Boolean.parseBoolean(f[4]),
              givesUp(f[5]),
              f[6].isEmpty() ? ServedRequest.NOT_TOLD : Long.parseLong(f[6]),
              f[7].isEmpty() ? null : f[7]));
    }
    return out;
  }
}
