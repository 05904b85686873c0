package org.overloadcontrol.internal.config;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The optional libraries stay behind the one place that needs them, so that the core loads and
 * runs without them ({@link OptionalLibrary}): SnakeYAML only in {@code SnakeYaml}, Commons Math
 * only in the capacity estimator, which the virtual queue builds only for
 * {@code capacity: auto}; SLF4J only in {@code OverloadLog}'s SLF4J side, which it loads only
 * when {@code slf4j-api} is present; and no metrics library anywhere.
 */
class OptionalLibrariesArchitectureTest {

  private final JavaClasses classes =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("org.overloadcontrol");

  @Test
  void onlySnakeYamlTouchesSnakeYaml() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("org.overloadcontrol.internal.pipeline.SnakeYaml")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.yaml..")
        .check(classes);
  }

  @Test
  void onlyTheCapacityPackageTouchesCommonsMath() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.overloadcontrol.internal.capacity..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.commons.math3..")
        .check(classes);
  }

  @Test
  void onlyOverloadLogsSlf4jSideTouchesSlf4j() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("org.overloadcontrol.base.Slf4jLog")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.slf4j..")
        .check(classes);
  }

  @Test
  void noMetricsLibrary() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.codahale.metrics..", "io.prometheus..", "io.micrometer..")
        .check(classes);
  }
}
