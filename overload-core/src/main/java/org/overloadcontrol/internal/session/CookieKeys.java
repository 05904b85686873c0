package org.overloadcontrol.internal.session;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC-SHA256 keys that sign session cookies: the current key's id, and the MAC of some
 * bytes under a key named by its id (null when that key is unknown, so a cookie signed with a
 * retired or foreign key verifies as nothing). The adapters hand in the virtual queue's key ring
 * or keys of their own ({@code sessions.keyFile}); this package does not read key files.
 */
public interface CookieKeys {

  /** The id of the key that signs new cookies. */
  String currentId();

  /** The HMAC-SHA256 of {@code data} under key {@code id}, or null if there is no such key. */
  byte[] hmac(String id, byte[] data);

  /** One random key, id {@code dev}: cookies die with the process (development, tests). */
  static CookieKeys random(SecureRandom random) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    SecretKeySpec key = new SecretKeySpec(bytes, "HmacSHA256");
    return new CookieKeys() {
      @Override
      public String currentId() {
        return "dev";
      }

      @Override
      public byte[] hmac(String id, byte[] data) {
        if (!"dev".equals(id)) {
          return null;
        }
        try {
          Mac mac = Mac.getInstance("HmacSHA256");
          mac.init(key);
          return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
          // Every Java 17 runtime has HmacSHA256; reaching here means a broken JCE setup.
          throw new IllegalStateException("HmacSHA256 is not available", e);
        }
      }
    };
  }
}
