package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No monitor ({@code synchronized} method or block) in the engine where a request thread may
 * wait for it. A virtual thread that waits to enter a monitor, or blocks inside one, pins its
 * carrier thread on Java 21 to 23 ({@code jdk.VirtualThreadPinned}); a {@code ReentrantLock}
 * does not. Read from the compiled classes (ArchUnit's copy of ASM), since a monitor block is
 * invisible to reflection and to ArchUnit's rules.
 */
class RequestPathMonitorsTest {

  /** Classes whose monitors no request thread waits for, each with the reason. */
  private static final Map<String, String> OFF_THE_REQUEST_PATH =
      Map.of(
          "org.overloadcontrol.internal.bandwidth.BandwidthShaper",
          "the manager round and the cluster report run on the scheduler thread only",
          "org.overloadcontrol.internal.session.SessionLoad",
          "closeWindow runs only in SessionGate.tick, on the scheduler thread, under its lock",
          "org.overloadcontrol.cluster.CapacityShare",
          "computed and read by the cluster exchange on the scheduler thread",
          "org.overloadcontrol.internal.metrics.OverloadWatch",
          "checked by the observability task on the scheduler thread",
          // Not yet: the first request of a class takes its partition under the group's
          // monitor; the concurrency controller's rework replaces it with a lock.
          "org.overloadcontrol.internal.admission.ConcurrencyGroup",
          "partition(...) on a class's first requests, left to the controller's rework");

  @Test
  void noRequestThreadWaitsForAMonitor() throws Exception {
    Path classes =
        Path.of(OverloadEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(classes)) {
      files.filter(f -> f.toString().endsWith(".class")).forEach(f -> found.addAll(monitors(f)));
    }
    found.removeIf(m -> OFF_THE_REQUEST_PATH.containsKey(m.substring(0, m.indexOf('#'))));
    assertThat(found).as("monitors on the request path").isEmpty();
  }

  @Test
  void theScanSeesBothKindsOfMonitor() throws URISyntaxException {
    Path self =
        Path.of(Monitors.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve(Monitors.class.getName().replace('.', '/') + ".class");
    assertThat(monitors(self))
        .containsExactlyInAnyOrder(
            RequestPathMonitorsTest.class.getName() + "#method",
            RequestPathMonitorsTest.class.getName() + "#block");
  }

  /** One of each, for the scan's own test. */
  static final class Monitors {
    private final Object guard = new Object();
    private int n;

    synchronized void method() {
      n++;
    }

    void block() {
      synchronized (guard) {
        n++;
      }
    }
  }

  /** {@code outer.Class#method} for each method of the class file that holds a monitor. */
  private static List<String> monitors(Path classFile) {
    List<String> found = new ArrayList<>();
    try (InputStream in = Files.newInputStream(classFile)) {
      new ClassReader(in)
          .accept(
              new ClassVisitor(Opcodes.ASM9) {
                String owner;

                @Override
                public void visit(
                    int version,
                    int access,
                    String name,
                    String signature,
                    String superName,
                    String[] interfaces) {
                  // Nested and lambda-holding classes count as their outermost class.
                  String outer = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
                  owner = outer.replace('/', '.');
                }

                @Override
                public MethodVisitor visitMethod(
                    int access, String name, String desc, String signature, String[] exceptions) {
                  if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                    found.add(owner + "#" + name);
                  }
                  return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                      if (opcode == Opcodes.MONITORENTER) {
                        found.add(owner + "#" + name);
                      }
                    }
                  };
                }
              },
              ClassReader.SKIP_DEBUG);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }
}
