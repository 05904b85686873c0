package org.overloadcontrol.internal.pipeline;

import java.io.InputStream;
import java.security.SecureRandom;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.session.CookieKeys;
import org.overloadcontrol.internal.session.SessionSettings;
import org.overloadcontrol.internal.virtualqueue.KeyRing;
import org.overloadcontrol.internal.virtualqueue.KeyRingLoader;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings;

/**
 * The keys that sign session cookies: {@code sessions.keyFile} or {@code sessions.keyEnv}, else
 * the virtual queue's ({@code virtualQueue.keyFile} / {@code keyEnv}: one secret to rotate; the
 * cookie's own label keeps a session tag from standing in for a queue token), else a random key
 * with a warning (cookies then die with the process and differ between nodes).
 */
final class SessionKeys {

  private static final OverloadLog LOG = OverloadLog.get(SessionKeys.class);

  private SessionKeys() {}

  /**
   * The keys for {@code settings}' sessions, or null when sessions are off.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key when a key file
   *     or variable is missing or bad
   */
  public static CookieKeys load(
      Settings settings,
      UnaryOperator<String> environment,
      Function<String, InputStream> webAppResources) {
    SessionSettings sessions = settings.sessions();
    if (!sessions.enabled()) {
      return null;
    }
    KeyRing ring =
        KeyRingLoader.load(
            "sessions", sessions.keyFile(), sessions.keyEnv(), environment, webAppResources);
    if (ring == null) {
      VirtualQueueSettings vq = settings.virtualQueue();
      ring =
          KeyRingLoader.load(
              "virtualQueue", vq.keyFile(), vq.keyEnv(), environment, webAppResources);
    }
    if (ring == null) {
      LOG.warn(
          "*** sessions: NO KEY CONFIGURED (sessions.keyFile or sessions.keyEnv, or the"
              + " virtual queue's). A random key was generated: session cookies will not survive a"
              + " restart and will not verify on other nodes. Use this in development only. ***");
      ring = KeyRing.random(new SecureRandom());
    }
    KeyRing keys = ring;
    return new CookieKeys() {
      @Override
      public String currentId() {
        return keys.currentId();
      }

      @Override
      public byte[] hmac(String id, byte[] data) {
        return keys.hmac(id, data);
      }
    };
  }
}
