package org.overloadcontrol.it.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * {@link VirtualThreadOverload} on Tomcat 11's virtual-thread executor. {@code mvn -Pexperiments
 * ... -Dit.test=Tomcat11VirtualThreadsExperiment} (docs/results.md §13); Java 21+.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class Tomcat11VirtualThreadsExperiment {

  @TempDir Path apps;

  @Test
  void overloadOnVirtualThreads() throws Exception {
    for (VirtualThreadOverload.Outcome o :
        VirtualThreadOverload.run(
            apps,
            "tomcat11",
            ContainerKind.TOMCAT::start,
            Integer.getInteger("experiment.seconds", 20),
            Path.of("target", "experiments", "vthreads-tomcat11.txt"))) {
      assertThat(
              o.load().okCount()
                  + o.load().rejectedCount()
                  + o.load().otherCount()
                  + o.load().failedCount())
          .as("%s: every request has one outcome", o.name())
          .isEqualTo(o.load().sentCount());
    }
  }
}
