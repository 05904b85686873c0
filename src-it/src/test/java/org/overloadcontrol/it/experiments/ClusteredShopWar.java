package org.overloadcontrol.it.experiments;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The sample WAR as a site turning cluster mode on rebuilds it: unpacked, with the cluster
 * module ({@code overload-cluster-hazelcast}) and Hazelcast added to {@code WEB-INF/lib}. The
 * WAR carries its own {@code overload-core}, so the module must sit beside it: a module found
 * on the container's class path would implement the container's copy of the coordinator
 * interface, not the application's.
 */
final class ClusteredShopWar {

  /** A class of each artifact the cluster mode adds: the module, then Hazelcast. */
  private static final List<String> ADDED =
      List.of(
          "org.overloadcontrol.cluster.hazelcast.HazelcastCoordinatorFactory",
          "com.hazelcast.core.Hazelcast");

  private ClusteredShopWar() {}

  /** Unpacks {@code war} into {@code dir} (emptied first) with the cluster artifacts added. */
  static Path write(Path war, Path dir) throws IOException {
    if (!Files.isRegularFile(war)) {
      throw new IllegalStateException("build the sample WAR first: " + war.toAbsolutePath());
    }
    delete(dir);
    unzip(war, dir);
    Path lib = Files.createDirectories(dir.resolve("WEB-INF").resolve("lib"));
    for (String type : ADDED) {
      Path source = codeSource(type);
      if (Files.isDirectory(source)) {
        // The reactor's classes directory of a module not yet packaged.
        copyTree(source, dir.resolve("WEB-INF").resolve("classes"));
      } else {
        Files.copy(source, lib.resolve(source.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return dir;
  }

  private static Path codeSource(String type) {
    try {
      Class<?> c = Class.forName(type, false, ClusteredShopWar.class.getClassLoader());
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (ClassNotFoundException | URISyntaxException e) {
      throw new IllegalStateException(type + " is not on the test class path", e);
    }
  }

  private static void unzip(Path war, Path dir) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        Path target = dir.resolve(e.getName()).normalize();
        if (!target.startsWith(dir)) {
          throw new IOException("entry outside the WAR's directory: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
