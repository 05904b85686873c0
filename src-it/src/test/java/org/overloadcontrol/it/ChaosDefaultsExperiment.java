package org.overloadcontrol.it;

import java.util.Map;

/**
 * {@link ChaosIT}'s mix at 100,000 requests per adapter under the defaults a user starts with:
 * only the endpoint's target, so the concurrency limit with its ceiling under the container's
 * threads, no permit count, no bucket, no bandwidth groups. The mix that issue 32 found starving
 * the default (the limit at 1, 99 of 100,000 answered 200): the application throws, answers
 * through {@code sendError} or hangs until its async timeout, and a tenth of the clients reset.
 * In the experiments profile: {@code mvn -Pexperiments -pl src-it -am verify -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ChaosDefaultsExperiment}. Results in
 * docs/results.md.
 */
class ChaosDefaultsExperiment extends ChaosIT {

  @Override
  int requests() {
    return 100_000;
  }

  @Override
  Map<String, String> keys() {
    return Map.of("endpoints.work.target", "300ms");
  }

  @Override
  boolean refuses() {
    return false;
  }
}
