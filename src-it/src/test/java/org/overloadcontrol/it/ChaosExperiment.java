package org.overloadcontrol.it;

/**
 * {@link ChaosIT} at 100,000 requests per container (about 80 s of sending each, at 1,250 a
 * second), with the same mishaps, resets, stop and checks, in the experiments profile: {@code
 * mvn -Pexperiments -pl src-it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=ChaosExperiment}. Results in docs/results.md.
 */
class ChaosExperiment extends ChaosIT {

  @Override
  int requests() {
    return 100_000;
  }
}
