package org.overloadcontrol.internal.virtualqueue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class VirtualQueueArchitectureTest {

  @Test
  void theVirtualQueueEngineHoldsNoContainerType() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(
                "org.overloadcontrol.internal.virtualqueue",
                "org.overloadcontrol.internal.capacity");
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("jakarta.servlet..", "org.eclipse.jetty..")
        .check(classes);
  }
}
