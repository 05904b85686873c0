package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every public type of the filter and the core (and the metrics bindings on this module's test
 * class path), listed in {@code public-api.txt} beside this test: a
 * type made public, or no longer public, fails here until the list says so, so a change to
 * what applications and the other modules may touch is a deliberate one. (The list holds the
 * published core types and the internal ones, under {@code org.overloadcontrol.internal}; which
 * core types are published is {@code PublishedApi}'s list in the core's tests.)
 */
class PublicApiTest {

  @Test
  void thePublicTypesAreTheListedOnes() throws IOException {
    List<String> actual =
        new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // the test-jars of other modules (FakeTicker ...) once Maven has packaged them
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("org.overloadcontrol")
                .stream()
                .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC))
                .filter(c -> !c.isAnonymousClass() && !c.isLocalClass())
                .filter(
                    c ->
                        c.getEnclosingClass()
                            .map(e -> e.getModifiers().contains(JavaModifier.PUBLIC))
                            .orElse(true))
                .map(JavaClass::getName)
                .sorted()
                .collect(Collectors.toList());
    List<String> listed;
    try (InputStream in = PublicApiTest.class.getResourceAsStream("public-api.txt")) {
      listed =
          in == null
              ? List.of()
              : Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                  .map(String::trim)
                  .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                  .sorted()
                  .collect(Collectors.toList());
    }
    assertThat(actual)
        .as("public types (update public-api.txt when the change is meant)")
        .containsExactlyElementsOf(listed);
  }
}
