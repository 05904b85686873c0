package org.overloadcontrol.internal.virtualqueue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * Loads the virtual queue's keys from {@code virtualQueue.keyFile} or the environment variable
 * named by {@code virtualQueue.keyEnv}. A key file is a file on disk, or, for a path under
 * {@code /WEB-INF/} that the web application holds, that resource (never served to clients, so
 * a WAR can carry a key file of its own). There is no built-in key: a key everyone can read in our
 * source would let anyone mint tokens. When neither is configured a random key is generated with
 * a loud warning; that is for development only, since tokens then die with the process and
 * differ between nodes.
 */
public final class KeyRingLoader {

  private static final OverloadLog LOG = OverloadLog.get(KeyRingLoader.class);

  /** Where a key file may be a resource of the web application: never served to clients. */
  static final String WEB_APP_PRIVATE = "/WEB-INF/";

  /** No web application: a key file is always on disk. */
  public static final Function<String, InputStream> NO_WEB_APP = path -> null;

  private KeyRingLoader() {}

  /**
   * Loads the ring, a key file always from disk.
   *
   * @param environment reads an environment variable ({@code System::getenv} in production)
   * @throws OverloadConfigException naming the key when the file or variable is missing or bad
   */
  public static KeyRing load(
      VirtualQueueSettings settings, UnaryOperator<String> environment, SecureRandom random) {
    return load(settings, environment, NO_WEB_APP, random);
  }

  /**
   * Loads the ring.
   *
   * @param environment reads an environment variable ({@code System::getenv} in production)
   * @param webAppResources opens a resource of the web application by its path, or returns
   *     null when there is none ({@code ServletContext::getResourceAsStream} in the filter)
   * @throws OverloadConfigException naming the key when the file or variable is missing or bad
   */
  public static KeyRing load(
      VirtualQueueSettings settings,
      UnaryOperator<String> environment,
      Function<String, InputStream> webAppResources,
      SecureRandom random) {
    return load(settings, environment, webAppResources, random, false);
  }

  /**
   * Loads the ring; in cluster mode a missing key is an error, not a warning: a key generated
   * on one node makes its tokens worthless on every other.
   *
   * @param clustered whether {@code cluster.enabled} is true
   * @throws OverloadConfigException as above, and in cluster mode when no key is configured
   */
  public static KeyRing load(
      VirtualQueueSettings settings,
      UnaryOperator<String> environment,
      Function<String, InputStream> webAppResources,
      SecureRandom random,
      boolean clustered) {
    KeyRing ring =
        load("virtualQueue", settings.keyFile(), settings.keyEnv(), environment, webAppResources);
    if (ring != null) {
      return ring;
    }
    if (clustered) {
      throw problem(
          "virtualQueue.keyFile",
          null,
          "required with cluster.enabled = true (or"
              + " virtualQueue.keyEnv): every node must hold the same keys, or a token issued on"
              + " one node is refused as forged on the others");
    }
    LOG.warn(
        "*** virtual queue: NO KEY CONFIGURED (virtualQueue.keyFile or virtualQueue.keyEnv)."
            + " A random key was generated: tokens will not survive a restart and will not verify"
            + " on other nodes. Use this in development only. ***");
    return KeyRing.random(random);
  }

  /**
   * Loads the ring named by {@code <section>.keyFile} or {@code <section>.keyEnv}, or returns
   * null when neither is given.
   *
   * @throws OverloadConfigException naming the key when the file or variable is missing or bad
   */
  public static KeyRing load(
      String section,
      String keyFile,
      String keyEnv,
      UnaryOperator<String> environment,
      Function<String, InputStream> webAppResources) {
    if (keyFile != null) {
      String text;
      try {
        text = read(keyFile, webAppResources);
      } catch (IOException | RuntimeException e) {
        throw problem(
            section + ".keyFile",
            keyFile,
            "cannot read the key file: " + e.getClass().getSimpleName());
      }
      return parse(section + ".keyFile", keyFile, text);
    }
    if (keyEnv != null) {
      String text = environment.apply(keyEnv);
      if (text == null || text.isBlank()) {
        throw problem(section + ".keyEnv", keyEnv, "the environment variable is not set or empty");
      }
      return parse(section + ".keyEnv", keyEnv, text);
    }
    return null;
  }

  /** The key file's text: the web application's resource under /WEB-INF/ if any, else disk. */
  private static String read(String keyFile, Function<String, InputStream> webAppResources)
      throws IOException {
    if (keyFile.startsWith(WEB_APP_PRIVATE)) {
      InputStream resource = webAppResources.apply(keyFile);
      if (resource != null) {
        try (InputStream in = resource) {
          return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
    }
    return Files.readString(Path.of(keyFile), StandardCharsets.UTF_8);
  }

  private static KeyRing parse(String key, String value, String text) {
    try {
      return KeyRing.parse(text);
    } catch (IllegalArgumentException e) {
      throw problem(
          key,
          value,
          e.getMessage() + " (the format is id:base64-key entries," + " current key first)");
    }
  }

  private static OverloadConfigException problem(String key, String value, String problem) {
    return OverloadConfigException.of(key, value, null, problem);
  }
}
