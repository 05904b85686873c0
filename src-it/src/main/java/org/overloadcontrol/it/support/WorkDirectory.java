package org.overloadcontrol.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A container's scratch directory (expanded WAR, sessions, compiled pages), removed on stop. */
final class WorkDirectory {

  private WorkDirectory() {}

  static Path create(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path dir) {
    // Twice: a container thread that is still winding down may add a file during the first
    // pass, which then fails to remove the directory.
    for (int attempt = 0; attempt < 2 && dir != null && Files.exists(dir); attempt++) {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // Left-over scratch files are harmless; a failed stop is not worth failing a test for.
      }
    }
  }
}
