package org.overloadcontrol.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.it.experiments.VirtualThreadOverload;

/**
 * {@link VirtualThreadOverload} on Jetty 12.1's VirtualThreadPool (ee11). {@code mvn -Pexperiments
 * ... -Dit.test=Jetty121VirtualThreadsExperiment} (docs/results.md §13); Java 21+.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class Jetty121VirtualThreadsExperiment {

  @TempDir Path apps;

  @Test
  void overloadOnVirtualThreads() throws Exception {
    for (VirtualThreadOverload.Outcome o :
        VirtualThreadOverload.run(
            apps,
            "jetty121",
            Ee11JettyContainer::start,
            Integer.getInteger("experiment.seconds", 20),
            Path.of("target", "experiments", "vthreads-jetty121.txt"))) {
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
