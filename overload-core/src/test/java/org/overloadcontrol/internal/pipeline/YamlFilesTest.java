package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * The one way the adapters read a YAML file or class-path resource they were pointed to: the
 * keys flattened, and a missing one refused naming the key that pointed to it and its origin.
 */
class YamlFilesTest {

  @TempDir Path dir;

  @Test
  void aFileIsReadAndAMissingOneIsRefusedNamingTheKeyAndItsOrigin() throws Exception {
    Path file = Files.writeString(dir.resolve("overload.yaml"), "queue:\n  permits: 7\n");
    assertThat(YamlConfigLoader.loadFile(file, "configFile", "overload.yaml", "here").values())
        .containsEntry("queue.permits", "7");
    assertThatThrownBy(
            () -> YamlConfigLoader.loadFile(dir.resolve("nope.yaml"), "configFile", "nope", "here"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'configFile' = 'nope' (from here)")
        .hasMessageContaining("no such file");
  }

  @Test
  void aMissingClassPathResourceIsRefusedNamingTheKey() {
    assertThatThrownBy(
            () ->
                YamlConfigLoader.loadResource(
                    getClass().getClassLoader(), "no/such.yaml", "configResource", "here"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'configResource' = 'no/such.yaml'")
        .hasMessageContaining("not on the class path");
  }
}
