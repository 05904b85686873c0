package org.overloadcontrol.internal.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;

/**
 * Watches an adapter's configuration files on disk and calls for a reload when one changes: a
 * cheap check of each file's modification time and size every {@link #PERIOD_NANOS}, on the
 * adapter's timer thread, rather than a file-system watch service, which misses changes on some
 * mounted volumes (a Kubernetes config map is swapped by a symbolic link) and needs a thread of
 * its own. A file written in two steps may be read half-written: that reload is refused and the
 * next check, seeing the finished file, reloads again.
 */
public final class ConfigFileWatch implements AutoCloseable {

  private static final OverloadLog LOG = OverloadLog.get(ConfigFileWatch.class);

  /** How often the files are checked: 2 s. */
  public static final long PERIOD_NANOS = 2_000_000_000L;

  /** What a check sees of one file; a file that is not there is a state too. */
  private record Stamp(boolean exists, long modifiedNanos, long size) {
    static Stamp of(Path file) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return new Stamp(
            true, a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.size());
      } catch (IOException e) {
        return new Stamp(false, 0L, 0L);
      }
    }
  }

  private final List<Path> files;
  private final Runnable onChange;
  private List<Stamp> seen;
  private final Scheduler.Cancellable task;

  private ConfigFileWatch(
      List<Path> files, Scheduler scheduler, long periodNanos, Runnable onChange) {
    this.files = List.copyOf(files);
    this.onChange = Objects.requireNonNull(onChange, "onChange");
    this.seen = stamps();
    this.task = scheduler.scheduleAtFixedRate(this::check, periodNanos);
  }

  /**
   * Starts watching {@code files} every {@link #PERIOD_NANOS}; null when there is none to watch.
   *
   * @param onChange the reload, called on the scheduler's thread after a change is seen
   */
  public static ConfigFileWatch start(List<Path> files, Scheduler scheduler, Runnable onChange) {
    return start(files, scheduler, PERIOD_NANOS, onChange);
  }

  /** As {@link #start(List, Scheduler, Runnable)}, every {@code periodNanos}. */
  public static ConfigFileWatch start(
      List<Path> files, Scheduler scheduler, long periodNanos, Runnable onChange) {
    return files.isEmpty() ? null : new ConfigFileWatch(files, scheduler, periodNanos, onChange);
  }

  /** The files watched. */
  public List<Path> files() {
    return files;
  }

  private List<Stamp> stamps() {
    List<Stamp> stamps = new ArrayList<>(files.size());
    for (Path f : files) {
      stamps.add(Stamp.of(f));
    }
    return stamps;
  }

  /** One check: reloads when any file differs from what the last check saw. */
  void check() {
    List<Stamp> now = stamps();
    if (now.equals(seen)) {
      return;
    }
    seen = now;
    try {
      onChange.run();
    } catch (RuntimeException e) {
      // The timer thread must go on: a reload reports its own refusals, this is anything else.
      LOG.warn("overload-control: reloading after a change to {} failed: {}", files, e.toString());
    }
  }

  /** Stops watching. */
  @Override
  public void close() {
    task.cancel();
  }
}
