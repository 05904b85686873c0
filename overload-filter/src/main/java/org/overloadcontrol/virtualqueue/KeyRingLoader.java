package org.overloadcontrol.virtualqueue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.function.UnaryOperator;
import org.overloadcontrol.config.OverloadConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the virtual queue's keys from {@code virtualQueue.keyFile} or the environment variable
 * named by {@code virtualQueue.keyEnv}. There is no built-in key: a key everyone can read in our
 * source would let anyone mint tokens. When neither is configured a random key is generated with
 * a loud warning; that is for development only, since tokens then die with the process and
 * differ between nodes.
 */
public final class KeyRingLoader {

  private static final Logger LOG = LoggerFactory.getLogger(KeyRingLoader.class);

  private KeyRingLoader() {}

  /**
   * Loads the ring.
   *
   * @param environment reads an environment variable ({@code System::getenv} in production)
   * @throws OverloadConfigException naming the key when the file or variable is missing or bad
   */
  public static KeyRing load(VirtualQueueSettings settings, UnaryOperator<String> environment,
      SecureRandom random) {
    if (settings.keyFile() != null) {
      String text;
      try {
        text = Files.readString(Path.of(settings.keyFile()), StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException e) {
        throw problem("virtualQueue.keyFile", settings.keyFile(),
            "cannot read the key file: " + e.getClass().getSimpleName());
      }
      return parse("virtualQueue.keyFile", settings.keyFile(), text);
    }
    if (settings.keyEnv() != null) {
      String text = environment.apply(settings.keyEnv());
      if (text == null || text.isBlank()) {
        throw problem("virtualQueue.keyEnv", settings.keyEnv(),
            "the environment variable is not set or empty");
      }
      return parse("virtualQueue.keyEnv", settings.keyEnv(), text);
    }
    LOG.warn("*** virtual queue: NO KEY CONFIGURED (virtualQueue.keyFile or virtualQueue.keyEnv)."
        + " A random key was generated: tokens will not survive a restart and will not verify"
        + " on other nodes. Use this in development only. ***");
    return KeyRing.random(random);
  }

  private static KeyRing parse(String key, String value, String text) {
    try {
      return KeyRing.parse(text);
    } catch (IllegalArgumentException e) {
      throw problem(key, value, e.getMessage() + " (the format is id:base64-key entries,"
          + " current key first)");
    }
  }

  private static OverloadConfigException problem(String key, String value, String problem) {
    return OverloadConfigException.of(key, value, null, problem);
  }
}
