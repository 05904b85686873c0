package org.overloadcontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The engine stays free of container types, so the servlet filter and the Jetty handler share
 * it; and no two packages depend on each other, so every feature builds on the shared words of
 * {@code org.overloadcontrol.base} and none on another in a circle. A package and its internal
 * twin ({@code org.overloadcontrol.metrics} and {@code org.overloadcontrol.internal.metrics}) are
 * one feature, split only by what is published.
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

  /** A feature's slice: its package's first name under org.overloadcontrol or its internal. */
  private static final SliceAssignment FEATURES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String pkg = c.getPackageName();
          String prefix =
              pkg.startsWith("org.overloadcontrol.internal.")
                  ? "org.overloadcontrol.internal."
                  : "org.overloadcontrol.";
          if (!pkg.startsWith(prefix)) {
            return SliceIdentifier.ignore();
          }
          String rest = pkg.substring(prefix.length());
          int dot = rest.indexOf('.');
          return SliceIdentifier.of(dot < 0 ? rest : rest.substring(0, dot));
        }

        @Override
        public String getDescription() {
          return "the features of org.overloadcontrol, a package and its internal twin as one";
        }
      };

  @Test
  void packagesHaveNoCycle() {
    slices().assignedFrom(FEATURES).should().beFreeOfCycles().check(classes);
  }
}
