package org.overloadcontrol.it.experiments.springcold;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ApacheBench ({@code ab}), the load of the user's report, run as the user ran it: {@code ab -r
 * -c C -t S -n 100000000 URL}, C connections that each send the next request the moment the
 * previous answer (any status) has come, for S seconds. Its own summary is the client's account
 * of the run: what completed, what was not a 2xx, and its percentiles.
 */
final class ApacheBench {

  /** What ab's -n is set to: so large that the time limit, not the count, ends the run. */
  private static final long REQUESTS = 100_000_000L;

  private static final String MISSING =
      "ApacheBench (ab) is not installed or not on the PATH: this experiment runs the user's"
          + " own load generator. Install it (on Debian and Ubuntu: apt-get install"
          + " apache2-utils) and run the experiment again.";

  private ApacheBench() {}

  /** Fails with what to install when {@code ab} cannot be run. */
  static void requireInstalled() {
    try {
      Process p = new ProcessBuilder("ab", "-V").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(MISSING);
      }
    } catch (IOException e) {
      throw new IllegalStateException(MISSING, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** One ab run: its command line, when it ran ({@link System#nanoTime()}) and its summary. */
  record Result(
      List<String> command,
      long startNanos,
      long endNanos,
      long complete,
      long failed,
      long non2xx,
      double seconds,
      double p50,
      double p90,
      double p99) {

    /** The 2xx answers. */
    long served() {
      return complete - non2xx;
    }
  }

  /**
   * Runs ab for {@code seconds} against {@code url} with {@code connections}; its standard
   * output goes to {@code out} (and is parsed), its standard error beside it.
   */
  static Result run(URI url, int connections, int seconds, Path out)
      throws IOException, InterruptedException {
    List<String> cmd =
        List.of(
            "ab",
            "-r",
            "-c",
            Integer.toString(connections),
            "-t",
            Integer.toString(seconds),
            "-n",
            Long.toString(REQUESTS),
            url.toString());
    Path err = out.resolveSibling(out.getFileName() + ".err");
    long start = System.nanoTime();
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    // ab stops itself at its time limit; the margin is for its last answers and its summary.
    if (!p.waitFor(seconds + 120L, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("ab did not stop after " + seconds + " s; see " + out);
    }
    long end = System.nanoTime();
    String text = Files.readString(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException("ab exited with " + p.exitValue() + "; see " + out + " and " + err);
    }
    return new Result(
        cmd,
        start,
        end,
        number(text, "Complete requests:\\s+(\\d+)", true),
        number(text, "Failed requests:\\s+(\\d+)", true),
        number(text, "Non-2xx responses:\\s+(\\d+)", false),
        decimal(text, "Time taken for tests:\\s+([\\d.]+) seconds"),
        decimal(text, "\\n\\s+50%\\s+(\\d+)"),
        decimal(text, "\\n\\s+90%\\s+(\\d+)"),
        decimal(text, "\\n\\s+99%\\s+(\\d+)"));
  }

  /** A count from ab's summary; ab leaves "Non-2xx responses" out when there were none. */
  private static long number(String text, String regex, boolean required) throws IOException {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (m.find()) {
      return Long.parseLong(m.group(1));
    }
    if (required) {
      throw new IOException("ab's output has no match for '" + regex + "':\n" + text);
    }
    return 0;
  }

  /** A number from ab's summary, NaN when ab printed none (no request completed). */
  private static double decimal(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }
}
