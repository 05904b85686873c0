package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.admission.ClassSettings;
import org.overloadcontrol.internal.admission.ControllerParameters;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.pipeline.YamlConfigLoader;

class ConfigParserTest {

  private static final long MS = 1_000_000L;

  @Test
  void defaultsArePublishedValuesAndNothingIsControlled() {
    OverloadConfig config = OverloadConfig.defaults();
    ClassSettings s = config.settingsFor("any", config.defaultClass());
    assertThat(s.controlled()).isFalse();
    assertThat(s.parameters()).isEqualTo(ControllerParameters.defaults());
    assertThat(s.parameters().alpha()).isEqualTo(0.7);
    assertThat(s.parameters().nreq()).isEqualTo(100);
    assertThat(s.parameters().timeoutNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(s.parameters().errD()).isEqualTo(0.0);
    assertThat(s.parameters().errI()).isEqualTo(-0.5);
    assertThat(s.parameters().cI()).isEqualTo(-0.1);
    assertThat(s.parameters().adjI()).isEqualTo(2.0);
    assertThat(s.parameters().adjD()).isEqualTo(1.2);
    assertThat(s.parameters().adjLoD()).isEqualTo(10.0);
    assertThat(s.parameters().lcThresh()).isEqualTo(20);
    assertThat(s.parameters().rateMin()).isEqualTo(0.05);
    assertThat(s.parameters().rateMax()).isEqualTo(5000.0);
    assertThat(s.parameters().initialRate()).isEqualTo(100.0);
    assertThat(s.parameters().bucketDepth()).isEqualTo(1);
    // Our one departure from the paper, on unless switched off (docs/controller.md).
    assertThat(s.parameters().judgeOnFreshSamples()).isTrue();
    assertThat(config.defaultClass().name()).isEqualTo("default");
    assertThat(config.enabled()).isTrue();
  }

  @Test
  void laterLayersOverrideEarlierOnes() {
    ConfigSource annotations =
        ConfigSource.of(
            "annotations",
            Map.of(
                "endpoints.search.target",
                "2s",
                "endpoints.search.class",
                "browse",
                "classes.browse.rank",
                "2"));
    ConfigSource initParams =
        ConfigSource.of(
            "init-param", Map.of("endpoints.search.target", "1s", "controller.alpha", "0.5"));
    ConfigSource yaml = ConfigSource.of("yaml", Map.of("endpoints.search.target", "500ms"));
    OverloadConfig config = OverloadConfig.parse(List.of(annotations, initParams, yaml));
    ClassDefinition browse = config.requestClass("browse").orElseThrow();
    ClassSettings s = config.settingsFor("search", browse);
    assertThat(s.targetNanos()).isEqualTo(500 * MS);
    assertThat(s.parameters().alpha()).isEqualTo(0.5);
    assertThat(config.endpointClass("search")).contains(browse);

    OverloadConfig withoutYaml = OverloadConfig.parse(List.of(annotations, initParams));
    assertThat(withoutYaml.settingsFor("search", browse).targetNanos()).isEqualTo(1000 * MS);
  }

  @Test
  void parametersResolveFromMostSpecificLevel() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "controller.adjD", "1.5",
                "classes.gold.rank", "5",
                "classes.gold.controller.adjD", "1.6",
                "endpoints.cart.controller.adjD", "1.7",
                "endpoints.cart.classes.gold.controller.adjD", "1.8",
                "classes.gold.target", "300ms",
                "endpoints.cart.target", "200ms",
                "endpoints.cart.classes.gold.target", "100ms"));
    ClassDefinition gold = config.requestClass("gold").orElseThrow();
    ClassDefinition def = config.defaultClass();
    assertThat(config.settingsFor("other", def).parameters().adjD()).isEqualTo(1.5);
    assertThat(config.settingsFor("other", gold).parameters().adjD()).isEqualTo(1.6);
    assertThat(config.settingsFor("cart", def).parameters().adjD()).isEqualTo(1.7);
    assertThat(config.settingsFor("cart", gold).parameters().adjD()).isEqualTo(1.8);
    assertThat(config.settingsFor("cart", gold).targetNanos()).isEqualTo(100 * MS);
    assertThat(config.settingsFor("cart", def).targetNanos()).isEqualTo(200 * MS);
    assertThat(config.settingsFor("other", gold).targetNanos()).isEqualTo(300 * MS);
    assertThat(config.settingsFor("other", def).targetNanos()).isZero();
  }

  @Test
  void thePapersExactControllerIsOneKeyAway() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "controller.judgeOnFreshSamples", "false",
                "endpoints.cart.controller.judgeOnFreshSamples", "TRUE"));
    ClassDefinition def = config.defaultClass();
    assertThat(config.settingsFor("other", def).parameters())
        .isEqualTo(ControllerParameters.custom().paperExact().build());
    assertThat(config.settingsFor("cart", def).parameters().judgeOnFreshSamples()).isTrue();
  }

  @Test
  void judgeOnFreshSamplesTakesTheWordsOfEverySwitch() {
    OverloadConfig config = OverloadConfig.of(Map.of("controller.judgeOnFreshSamples", "no"));
    assertThat(config.settingsFor("other", config.defaultClass()).parameters())
        .isEqualTo(ControllerParameters.custom().paperExact().build());
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.judgeOnFreshSamples", "maybe")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("controller.judgeOnFreshSamples")
        .hasMessageContaining("'maybe'")
        .hasMessageEndingWith("allowed: true, false");
  }

  @Test
  void classesCarryRankKindAndUtility() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "classes.payment.rank",
                "7",
                "classes.payment.kind",
                "Transaction",
                "classes.payment.utility",
                "4500"));
    assertThat(config.requestClass("payment"))
        .contains(new ClassDefinition("payment", 7, RequestKind.TRANSACTION, 4500));
  }

  @Test
  void targetNoneTurnsControlOff() {
    OverloadConfig config =
        OverloadConfig.parse(
            List.of(
                ConfigSource.of("annotations", Map.of("endpoints.x.target", "1s")),
                ConfigSource.of("yaml", Map.of("endpoints.x.target", "none"))));
    assertThat(config.settingsFor("x", config.defaultClass()).controlled()).isFalse();
  }

  @Test
  void unknownKeyNamesTheKeyValueOriginAndTheAllowedForms() {
    assertThatThrownBy(
            () ->
                OverloadConfig.parse(
                    List.of(
                        ConfigSource.of("web.xml init-param", Map.of("controler.alpha", "0.5")))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'controler.alpha'")
        .hasMessageContaining("'0.5'")
        .hasMessageContaining("web.xml init-param")
        .hasMessageContaining("controller.<parameter>");
  }

  @Test
  void theRefusalsStatusIsAutoUnlessSetTo503Or429() {
    assertThat(OverloadConfig.defaults().rejectionStatus()).isZero();
    assertThat(OverloadConfig.of(Map.of("rejectionStatus", "429")).rejectionStatus())
        .isEqualTo(429);
    assertThat(OverloadConfig.of(Map.of("rejectionStatus", " 503 ")).rejectionStatus())
        .isEqualTo(503);
    assertThat(OverloadConfig.of(Map.of("rejectionStatus", "AUTO")).rejectionStatus()).isZero();
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("rejectionStatus", "500")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("rejectionStatus")
        .hasMessageContaining("auto, 503, 429");
  }

  @Test
  void unknownControllerParameter() {
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.gain", "3")))
        .hasMessageContaining("controller.gain")
        .hasMessageContaining("adjD");
  }

  @Test
  void unknownClassName() {
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("endpoints.cart.class", "platinum")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoints.cart.class")
        .hasMessageContaining("platinum")
        .hasMessageContaining("defined classes: default");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("endpoints.cart.classes.gold.target", "1s")))
        .hasMessageContaining("unknown request class 'gold'");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("defaultClass", "gold")))
        .hasMessageContaining("defaultClass");
  }

  @Test
  void negativeOrZeroTarget() {
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("endpoints.cart.target", "-5ms")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoints.cart.target")
        .hasMessageContaining("'-5ms'")
        .hasMessageContaining("positive duration");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("endpoints.cart.target", "0s")))
        .hasMessageContaining("positive duration");
  }

  @Test
  void unparsableDuration() {
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("endpoints.cart.target", "fast")))
        .hasMessageContaining("'fast'")
        .hasMessageContaining("500ms");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.timeout", "1000")))
        .hasMessageContaining("controller.timeout")
        .hasMessageContaining("'1000'");
  }

  @Test
  void aControllerTimeoutTooLongForItsRoundsIsRefused() {
    // Ten timeouts of 292 years wrapped negative in the controller's idle and silence checks.
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.timeout", "PT2562047H")))
        .hasMessageContaining("key 'controller.timeout' = 'PT2562047H'")
        .hasMessageContaining("at most 1h");
    assertThat(
            OverloadConfig.of(Map.of("controller.timeout", "1h"))
                .settingsFor("", ClassDefinition.defaultClass())
                .parameters()
                .timeoutNanos())
        .isEqualTo(3_600_000_000_000L);
  }

  @Test
  void badParameterValuesAndContradictions() {
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.alpha", "1.5")))
        .hasMessageContaining("controller.alpha")
        .hasMessageContaining("[0, 1)");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("controller.nreq", "many")))
        .hasMessageContaining("not a whole number");
    assertThatThrownBy(
            () ->
                OverloadConfig.of(
                    Map.of(
                        "controller.rateMin",
                        "10",
                        "controller.rateMax",
                        "5",
                        "controller.initialRate",
                        "7")))
        .hasMessageContaining("rateMax");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("classes.gold.kind", "vip")))
        .hasMessageContaining("browsing, transaction");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("enabled", "maybe")))
        .hasMessageContaining("true, false");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("trustedProxies", "proxy.example")))
        .hasMessageContaining("not an IP address");
    assertThatThrownBy(() -> OverloadConfig.of(Map.of("classes.gold.match.path", "/a*b")))
        .hasMessageContaining("path pattern");
  }

  @Test
  void classRulesAreOrderedByRank() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "classes.low.rank",
                "1",
                "classes.low.match.path",
                "/*",
                "classes.high.rank",
                "9",
                "classes.high.match.header",
                "X-Tier=gold"));
    assertThat(config.classRules())
        .extracting(r -> r.requestClass().name())
        .containsExactly("high", "low");
  }

  @Test
  void endpointNamesMayContainDots() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "endpoints.com.example.SearchServlet.target", "750ms",
                "endpoints.com.example.SearchServlet.controller.nreq", "50"));
    ClassSettings s = config.settingsFor("com.example.SearchServlet", config.defaultClass());
    assertThat(s.targetNanos()).isEqualTo(750 * MS);
    assertThat(s.parameters().nreq()).isEqualTo(50);
  }

  @Test
  void yamlFlattensToTheSameKeys() throws Exception {
    String yaml =
        """
        controller:
          alpha: 0.6
        classes:
          gold:
            rank: 9
            match:
              header: X-Tier=gold
        endpoints:
          search:
            target: 800ms
            paths: [/search, /api/search/*]
        """;
    ConfigSource source =
        YamlConfigLoader.load(
            new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "overload.yaml");
    assertThat(source.values())
        .containsEntry("endpoints.search.paths", "/search,/api/search/*")
        .containsEntry("classes.gold.match.header", "X-Tier=gold");
    OverloadConfig config = OverloadConfig.parse(List.of(source));
    assertThat(config.endpointRules()).hasSize(1);
    assertThat(config.endpointRules().get(0).matches("/api/search/books")).isTrue();
    assertThat(config.settingsFor("search", config.defaultClass()).parameters().alpha())
        .isEqualTo(0.6);
  }

  @Test
  void invalidYamlNamesTheFile() {
    assertThatThrownBy(
            () ->
                YamlConfigLoader.load(
                    new ByteArrayInputStream("a: [unclosed".getBytes(StandardCharsets.UTF_8)),
                    "WEB-INF/overload.yaml"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("WEB-INF/overload.yaml");
  }

  @Test
  void featureSectionsAreHandedOverWithOrigins() {
    OverloadConfig config =
        OverloadConfig.parse(
            List.of(ConfigSource.of("yaml", Map.of("bandwidth.total", "100KB/s"))));
    ConfigSection section = config.section("bandwidth");
    assertThat(section.get("total")).isEqualTo("100KB/s");
    assertThat(section.error("total", "bad").getMessage())
        .contains("bandwidth.total")
        .contains("'100KB/s'")
        .contains("yaml");
    assertThat(config.section("virtualQueue").isEmpty()).isTrue();
  }
}
