package org.overloadcontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine stays free of container types, so the servlet filter and the Jetty handler share
 * it; and no two packages depend on each other, so every feature builds on the shared words of
 * {@code org.overloadcontrol.base} and none on another in a circle.
 */
class ArchitectureTest {

  private final JavaClasses classes =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // the test-jars of other modules (FakeTicker ...) once Maven has packaged them
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("org.overloadcontrol");

  @Test
  void engineImportsNeitherServletNorJetty() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.overloadcontrol.servlet..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("jakarta.servlet..", "org.eclipse.jetty..")
        .check(classes);
  }

  @Test
  void engineDoesNotReadTheWallClockOrSleep() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.overloadcontrol.servlet..")
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .check(classes);
  }

  @Test
  void packagesHaveNoCycle() {
    slices().matching("org.overloadcontrol.(*)..").should().beFreeOfCycles().check(classes);
  }
}
