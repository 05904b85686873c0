package org.overloadcontrol.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Without an SLF4J provider the library's lines reach the container's sink, with one notice
 * that says why; with one, they go to SLF4J only. The no-provider case runs the class in a
 * class loader holding only the library's classes and {@code slf4j-api}, as a WAR without a
 * provider does (the test class path has slf4j-simple), and in one without {@code slf4j-api} at
 * all, as a WAR that carries only the filter and the core.
 */
class OverloadLogTest {

  @Test
  void withoutAProviderTheLinesAndOneNoticeGoToTheContainerSink() throws Exception {
    URL slf4jApi = LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
    assertFallbackToTheContainerSink(library(), slf4jApi);
  }

  @Test
  void withoutSlf4jApiTheLinesAndOneNoticeGoToTheContainerSink() throws Exception {
    assertFallbackToTheContainerSink(library());
  }

  private static URL library() {
    return OverloadLog.class.getProtectionDomain().getCodeSource().getLocation();
  }

  /** Runs the library's lines in a class loader of {@code classPath} alone, as a WAR's. */
  private static void assertFallbackToTheContainerSink(URL... classPath) throws Exception {
    List<String> sink = new CopyOnWriteArrayList<>();
    try (URLClassLoader war = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
      Class<?> log = war.loadClass(OverloadLog.class.getName());
      assertThat((Boolean) log.getMethod("slf4jBound").invoke(null)).isFalse();
      Consumer<String> container = sink::add;
      log.getMethod("containerSink", Consumer.class).invoke(null, container);
      Object overload =
          log.getMethod("get", String.class).invoke(null, "org.overloadcontrol.overload");
      Method info = log.getMethod("info", String.class, Object[].class);
      Method warn = log.getMethod("warn", String.class, Object[].class);
      Method debug = log.getMethod("debug", String.class, Object[].class);
      info.invoke(overload, "endpoint '{}' is now shedding", new Object[] {"search"});
      warn.invoke(overload, "could not {}", new Object[] {"read", new IllegalStateException("x")});
      debug.invoke(overload, "detail {}", new Object[] {"dropped"});
      assertThat((Boolean) log.getMethod("isDebugEnabled").invoke(overload)).isFalse();
      info.invoke(overload, "endpoint '{}' is now healthy", new Object[] {"search"});
    }
    assertThat(sink).hasSize(4);
    assertThat(sink.get(0)).contains("no SLF4J provider is bound").contains("slf4j-jdk14");
    assertThat(sink.subList(1, 4))
        .containsExactly(
            "endpoint 'search' is now shedding",
            "WARNING could not read: java.lang.IllegalStateException: x",
            "endpoint 'search' is now healthy");
  }

  @Test
  void withAProviderNothingGoesToTheContainerSink() throws Exception {
    List<String> sink = new CopyOnWriteArrayList<>();
    assertThat(OverloadLog.slf4jBound()).as("slf4j-simple on the test class path").isTrue();
    AutoCloseable installed = OverloadLog.containerSink(sink::add);
    try {
      OverloadLog.get("org.overloadcontrol.overload").info("endpoint '{}' is now shedding", "a");
      OverloadLog.get(OverloadLogTest.class).warn("a warning");
    } finally {
      installed.close();
    }
    assertThat(sink).isEmpty();
  }
}
