package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSection;

class KeyRingTest {

  private final SecureRandom random = new SecureRandom();

  @Test
  void firstKeySignsAllVerify() {
    String text =
        "# rotated 2026-01\n"
            + KeyRing.newEntry("new", random)
            + "\n"
            + KeyRing.newEntry("old", random)
            + ", "
            + KeyRing.newEntry("older", random);
    KeyRing ring = KeyRing.parse(text);
    assertThat(ring.currentId()).isEqualTo("new");
    assertThat(ring.ids()).containsExactly("new", "old", "older");
  }

  @Test
  void urlSafeBase64IsAccepted() {
    byte[] key = new byte[32];
    random.nextBytes(key);
    String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(key);
    assertThat(KeyRing.parse("a:" + urlSafe).key("a").getEncoded()).isEqualTo(key);
  }

  @Test
  void badEntriesAreRefusedWithoutQuotingKeyBytes() {
    String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
    assertThatThrownBy(() -> KeyRing.parse("a:" + shortKey))
        .hasMessageContaining("16 bytes; at least 32")
        .hasMessageNotContaining(shortKey);
    assertThatThrownBy(() -> KeyRing.parse("no-colon")).hasMessageContaining("id:base64-key");
    assertThatThrownBy(() -> KeyRing.parse("bad id:xx")).hasMessageContaining("id:base64-key");
    String k = KeyRing.newEntry("a", random);
    assertThatThrownBy(() -> KeyRing.parse(k + " " + k)).hasMessageContaining("twice");
    assertThatThrownBy(() -> KeyRing.parse("a:!!!")).hasMessageContaining("not Base64");
    assertThatThrownBy(() -> KeyRing.parse("# only a comment")).hasMessageContaining("no key");
  }

  @Test
  void loaderReadsTheKeyFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("queue.keys");
    Files.writeString(file, KeyRing.newEntry("f1", random) + "\n");
    KeyRing ring =
        KeyRingLoader.load(settings(Map.of("keyFile", file.toString())), n -> null, random);
    assertThat(ring.currentId()).isEqualTo("f1");
  }

  @Test
  void aKeyFileUnderWebInfIsReadFromTheWebApplication(@TempDir Path dir) throws Exception {
    String entry = KeyRing.newEntry("w1", random);
    KeyRing ring =
        KeyRingLoader.load(
            settings(Map.of("keyFile", "/WEB-INF/queue.keys")),
            n -> null,
            path ->
                path.equals("/WEB-INF/queue.keys")
                    ? new java.io.ByteArrayInputStream(entry.getBytes(StandardCharsets.UTF_8))
                    : null,
            random);
    assertThat(ring.currentId()).isEqualTo("w1");

    // Elsewhere in the web application (served to clients) a key file is never looked for.
    Path onDisk = dir.resolve("queue.keys");
    Files.writeString(onDisk, KeyRing.newEntry("d1", random) + "\n");
    KeyRing disk =
        KeyRingLoader.load(
            settings(Map.of("keyFile", onDisk.toString())),
            n -> null,
            path -> {
              throw new AssertionError("asked the web application for " + path);
            },
            random);
    assertThat(disk.currentId()).isEqualTo("d1");
    assertThatThrownBy(
            () ->
                KeyRingLoader.load(
                    settings(Map.of("keyFile", "/WEB-INF/absent.keys")),
                    n -> null,
                    path -> null,
                    random))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.keyFile")
        .hasMessageContaining("cannot read");
  }

  @Test
  void loaderReadsTheEnvironmentVariable() {
    String entry = KeyRing.newEntry("e1", random);
    KeyRing ring =
        KeyRingLoader.load(
            settings(Map.of("keyEnv", "QUEUE_KEYS")),
            n -> n.equals("QUEUE_KEYS") ? entry : null,
            random);
    assertThat(ring.currentId()).isEqualTo("e1");
  }

  @Test
  void missingFileOrVariableFailsNamingTheKey(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                KeyRingLoader.load(
                    settings(Map.of("keyFile", dir.resolve("absent").toString())),
                    n -> null,
                    random))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.keyFile")
        .hasMessageContaining("cannot read");
    assertThatThrownBy(
            () -> KeyRingLoader.load(settings(Map.of("keyEnv", "QUEUE_KEYS")), n -> null, random))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.keyEnv")
        .hasMessageContaining("not set");
    assertThatThrownBy(
            () ->
                KeyRingLoader.load(
                    settings(Map.of("keyEnv", "QUEUE_KEYS")), n -> "k:c2hvcnQ=", random))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("at least 32");
  }

  @Test
  void withoutConfiguredKeysARandomDevelopmentKeyIsGenerated() {
    KeyRing a = KeyRingLoader.load(settings(Map.of()), n -> null, random);
    KeyRing b = KeyRingLoader.load(settings(Map.of()), n -> null, random);
    assertThat(a.currentId()).isEqualTo("dev");
    assertThat(a.key("dev").getEncoded()).isNotEqualTo(b.key("dev").getEncoded());
  }

  private static VirtualQueueSettings settings(Map<String, String> values) {
    return VirtualQueueSettings.from(ConfigSection.of("virtualQueue", values));
  }
}
