package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;

/** A missing optional library stops the start with the key and the coordinates to add. */
class OptionalLibraryTest {

  @Test
  void anAbsentLibraryIsNamedWithItsCoordinates() {
    OptionalLibrary missing = new OptionalLibrary("org.example.NoSuchParser", "org.example:parser");
    assertThat(missing.present()).isFalse();
    assertThatThrownBy(() -> missing.require("virtualQueue.capacity", "the capacity estimator"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining(
            "the capacity estimator (virtualQueue.capacity) needs"
                + " org.example:parser on the class path");
  }

  @Test
  void theCoreTestsRunWithBothOptionalLibraries() {
    assertThat(OptionalLibrary.SNAKEYAML.present()).isTrue();
    assertThat(OptionalLibrary.COMMONS_MATH.present()).isTrue();
    OptionalLibrary.SNAKEYAML.require("overload.yaml", "a YAML configuration file");
  }
}
