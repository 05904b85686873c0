package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * Random configurations, as init-params and as YAML, built from every key of README's tables
 * and values chosen to hurt (overflowing durations and numbers, NaN, bad addresses, empty
 * strings): whatever the input, the only failure allowed is the {@link OverloadConfigException}
 * that names the key. Seeded, bounded in count, a few seconds.
 */
class ConfigFuzzTest {

  private static final String[] NAMES = {"gold", "browse", "txn", "search", "a", "default"};
  private static final String[] KEYS = {
    "enabled",
    "trustedProxies",
    "requestStart.header",
    "requestStart.maxAge",
    "defaultClass",
    "retryAfter.min",
    "retryAfter.max",
    "controller.alpha",
    "controller.nreq",
    "controller.timeout",
    "controller.errD",
    "controller.adjI",
    "controller.adjD",
    "controller.rateMin",
    "controller.rateMax",
    "controller.initialRate",
    "controller.bucketDepth",
    "controller.judgeOnFreshSamples",
    "controller.lcThresh",
    "controller.adjLoD",
    "classes.%s.rank",
    "classes.%s.kind",
    "classes.%s.utility",
    "classes.%s.target",
    "classes.%s.controller.nreq",
    "classes.%s.match.path",
    "classes.%s.match.method",
    "classes.%s.match.header",
    "classes.%s.match.cookie",
    "classes.%s.match.client",
    "endpoints.%s.target",
    "endpoints.%s.paths",
    "endpoints.%s.class",
    "endpoints.%s.controller.timeout",
    "endpoints.%s.classes.%s.target",
    "queue.permits",
    "queue.layout",
    "queue.order",
    "queue.browsingCapacity",
    "queue.maxWait",
    "queue.nonAsync",
    "queue.overload.signal",
    "queue.overload.window",
    "queue.overload.enterDelay",
    "queue.overload.exitDelay",
    "queue.overload.cpuUpper",
    "queue.classes.%s.capacity",
    "queue.classes.%s.maxWait",
    "queue.endpoints.%s.permits",
    "queue.endpoints.%s.adaptive",
    "queue.endpoints.%s.admission",
    "queue.endpoints.%s.threshold.initial",
    "queue.endpoints.%s.threshold.period",
    "queue.endpoints.%s.samplePeriod",
    "queue.endpoints.%s.maxPermits",
    "degrade.minQuality",
    "degrade.step",
    "degrade.period",
    "degrade.mode",
    "degrade.endpoints.%s.minQuality",
    "degrade.endpoints.%s.target",
    "degrade.endpoints.%s.enabled",
    "bandwidth.enabled",
    "bandwidth.total",
    "bandwidth.alpha",
    "bandwidth.managerPeriod",
    "bandwidth.maxDelay",
    "bandwidth.standbyLimit",
    "bandwidth.cacheExpiry",
    "bandwidth.groups.%s.share",
    "bandwidth.groups.%s.match.client",
    "bandwidth.paths",
    "virtualQueue.enabled",
    "virtualQueue.paths",
    "virtualQueue.capacity",
    "virtualQueue.maxWait",
    "virtualQueue.grace",
    "virtualQueue.epoch",
    "virtualQueue.types.%s",
    "virtualQueue.hardness.%s",
    "virtualQueue.replayCacheSize",
    "virtualQueue.repostMaxBytes",
    "virtualQueue.trainingEpochs",
    "metrics.enabled",
    "metrics.period",
    "metrics.overloadQuietPeriod",
    "metrics.jmxDomain",
    "status.allow",
    "status.role"
  };
  private static final String[] VALUES = {
    "",
    " ",
    "0",
    "1",
    "-1",
    "2",
    "100",
    "0.5",
    "1e308",
    "-1e308",
    "NaN",
    "Infinity",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999",
    "2147483648",
    "500ms",
    "1s",
    "0s",
    "-5ms",
    "1.5s",
    "PT9999999999999H",
    "PT2562048H",
    "PT2562047H",
    "9999999999999999999ms",
    "1e30s",
    "106752d",
    "9223372036854775807ns",
    "10m",
    "1h",
    "true",
    "false",
    "none",
    "off",
    "fifo",
    "lifo",
    "per-class",
    "single",
    "cpu",
    "queue-delay",
    "queue-threshold",
    "rate",
    "browsing",
    "transaction",
    "block",
    "reject",
    "/x",
    "/x/*",
    "*.jpg",
    "/",
    "x",
    "GET",
    "X-Tier=gold",
    "Name",
    "gold",
    "browse",
    "txn",
    "127.0.0.1",
    "999.1.1.1",
    "10.0.0.0/33",
    "10.0.0.0/8",
    "::1",
    "fe80::1/200",
    "a,b",
    ",",
    "1,2,3",
    "%",
    "\u2028",
    "fixed",
    "auto",
    "60",
    "5000"
  };

  @Test
  void noConfigurationEscapesAsAnythingButTheKeyNamingException() throws Exception {
    Random random = new Random(17);
    int refused = 0;
    List<String> escaped = new ArrayList<>();
    List<String> unnamed = new ArrayList<>();
    for (int i = 0; i < 20_000 && escaped.size() < 5; i++) {
      Map<String, String> keys = randomConfiguration(random);
      boolean asYaml = random.nextBoolean();
      try {
        Settings.parse(List.of(asYaml ? yaml(keys) : ConfigSource.of("init-param", keys)));
      } catch (OverloadConfigException e) {
        // A key the user wrote, as written, with its value (trimmed) and its layer.
        String m = e.getMessage();
        if (keys.entrySet().stream()
            .noneMatch(
                k ->
                    m.contains(
                        "key '" + k.getKey() + "' = '" + k.getValue().trim() + "' (from "))) {
          unnamed.add(keys + " -> " + m);
        }
        refused++;
      } catch (RuntimeException e) {
        escaped.add(e + " from " + keys);
      }
    }
    assertThat(escaped).as("inputs that escaped as another exception").isEmpty();
    assertThat(unnamed).as("refusals that name no key the user wrote").isEmpty();
    assertThat(refused).as("the fuzzer reached the refusals").isGreaterThan(1_000);
  }

  /**
   * Issue 33, item 2: each constraint between two keys, broken once from each side and at each
   * layer of the controller's parameters. The refusal must name a key the user wrote, as
   * written, with its value and its layer; one that named only "controller" (or a key left at
   * its default) sent the user looking for a key they never set.
   */
  @Test
  void everyCrossParameterRefusalNamesAKeyAsWrittenItsValueAndItsLayer() throws Exception {
    List<Map<String, String>> cases = new ArrayList<>();
    for (String at :
        new String[] {"", "classes.gold.", "endpoints.slow.", "endpoints.slow.classes.gold."}) {
      String c = at + "controller.";
      cases.add(Map.of(c + "initialRate", "1e9"));
      cases.add(Map.of(c + "initialRate", "0.01"));
      cases.add(Map.of(c + "rateMin", "200"));
      cases.add(Map.of(c + "rateMax", "50"));
      cases.add(Map.of(c + "rateMin", "10", c + "rateMax", "5", c + "initialRate", "7"));
      cases.add(Map.of(c + "errI", "1"));
      cases.add(Map.of(c + "errD", "-1"));
      cases.add(Map.of("controller.initialRate", "80", c + "rateMin", "90"));
      cases.add(Map.of("controller.rateMin", "90", c + "rateMax", "80"));
    }
    cases.add(Map.of("retryAfter.min", "120s"));
    cases.add(Map.of("retryAfter.max", "500ms"));
    cases.add(Map.of("admission.initialLimit", "500"));
    cases.add(Map.of("admission.maxLimit", "5", "admission.initialLimit", "10"));
    cases.add(
        Map.of("admission.groups.g.endpoints", "slow", "admission.groups.g.initialLimit", "300"));
    cases.add(
        Map.of(
            "admission.groups.g.endpoints", "slow",
            "admission.maxLimit", "10",
            "admission.groups.g.initialLimit", "20"));
    cases.add(Map.of("metrics.period", "10s"));
    cases.add(Map.of("metrics.overloadQuietPeriod", "1ms"));
    cases.add(Map.of("queue.overload.enterDelay", "10ms"));
    cases.add(Map.of("queue.overload.exitDelay", "1s"));
    cases.add(Map.of("queue.overload.cpuUpper", "0.5"));
    cases.add(Map.of("queue.overload.cpuLower", "1"));
    cases.add(
        Map.of("queue.endpoints.slow.adaptive", "true", "queue.endpoints.slow.permits", "50"));
    cases.add(
        Map.of("queue.endpoints.slow.adaptive", "true", "queue.endpoints.slow.minPermits", "30"));
    cases.add(
        Map.of(
            "queue.endpoints.slow.adaptive", "true",
            "queue.endpoints.slow.permits", "5",
            "queue.endpoints.slow.maxPermits", "3"));
    cases.add(Map.of("sessions.idleTimeout", "5m", "sessions.maxLifetime", "1m"));
    Map<String, String> bandwidth =
        Map.of(
            "bandwidth.enabled", "true",
            "bandwidth.total", "1000000",
            "bandwidth.groups.a.share", "50",
            "bandwidth.groups.a.match.client", "10.0.0.0/8");
    cases.add(with(bandwidth, "bandwidth.managerPeriod", "60s"));
    cases.add(with(bandwidth, "bandwidth.cacheExpiry", "1ms"));
    cases.add(
        with(
            with(bandwidth, "bandwidth.groups.b.share", "60"),
            "bandwidth.groups.b.match.client",
            "192.168.0.0/16"));
    cases.add(Map.of("bandwidth.paths", "/x"));
    cases.add(Map.of("bandwidth.groups.a.match.client", "10.0.0.0/8"));
    cases.add(Map.of("virtualQueue.enabled", "true"));
    cases.add(Map.of("virtualQueue.enabled", "true", "virtualQueue.paths", ""));
    cases.add(Map.of("virtualQueue.paths", "/x", "virtualQueue.hardness.a", "2"));
    cases.add(Map.of("cluster.enabled", "true"));
    cases.add(Map.of("degrade.endpoints.slow.enabled", "true"));

    List<String> wrong = new ArrayList<>();
    for (Map<String, String> keys : cases) {
      Map<String, String> all = new LinkedHashMap<>(keys);
      all.putIfAbsent("classes.gold.rank", "5");
      for (boolean asYaml : new boolean[] {false, true}) {
        ConfigSource source = asYaml ? yaml(all) : ConfigSource.of("init-param", all);
        String message;
        try {
          Settings.parse(List.of(source));
          wrong.add("accepted: " + keys);
          continue;
        } catch (OverloadConfigException e) {
          message = e.getMessage();
        }
        boolean named =
            keys.entrySet().stream()
                .anyMatch(
                    k ->
                        message.contains(
                            "key '"
                                + k.getKey()
                                + "' = '"
                                + k.getValue()
                                + "' (from "
                                + source.origin(k.getKey())
                                + ")"));
        if (!named || message.contains("endpoint ''")) {
          wrong.add(keys + " -> " + message);
        }
      }
    }
    assertThat(wrong).as("refusals that do not name a key as written").isEmpty();
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(base);
    copy.put(key, value);
    return copy;
  }

  private static Map<String, String> randomConfiguration(Random random) {
    Map<String, String> keys = new LinkedHashMap<>();
    int n = 1 + random.nextInt(6);
    for (int k = 0; k < n; k++) {
      String key = KEYS[random.nextInt(KEYS.length)];
      key =
          key.replaceFirst("%s", NAMES[random.nextInt(NAMES.length)])
              .replaceFirst("%s", NAMES[random.nextInt(NAMES.length)]);
      keys.put(key, VALUES[random.nextInt(VALUES.length)]);
    }
    return keys;
  }

  /** The same keys through the YAML loader, each value quoted so YAML keeps it a string. */
  private static ConfigSource yaml(Map<String, String> keys) throws Exception {
    StringBuilder text = new StringBuilder();
    keys.forEach((k, v) -> text.append(k).append(": '").append(v.replace("'", "''")).append("'\n"));
    return YamlConfigLoader.load(
        new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), "fuzz.yaml");
  }
}
