package org.overloadcontrol.internal.virtualqueue;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes and verifies the three HMAC-SHA256 tags of a {@link QueueToken} (WebQ §II-C:
 * "the HMAC of the user IP address, the timestamp TS when the user checked in and the wait time
 * w", to which we add the requested URL). Each tag has its own one-byte label so a tag of one
 * kind can never stand in for another. Comparisons use {@link MessageDigest#isEqual}, which
 * takes the same time wherever the first differing byte is.
 */
final class TokenSigner {

  private static final byte SEAL = 1;
  private static final byte URL = 2;
  private static final byte ADDRESS = 3;

  private final KeyRing keys;

  TokenSigner(KeyRing keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** Issues a token with the current key. */
  QueueToken issue(
      String clientAddress, String url, long checkInSecond, int waitSeconds, long nonce) {
    String keyId = keys.currentId();
    SecretKeySpec key = keys.key(keyId);
    byte[] core = QueueToken.core(keyId, checkInSecond, waitSeconds, nonce);
    return new QueueToken(
        keyId,
        checkInSecond,
        waitSeconds,
        nonce,
        tag(key, SEAL, core, null),
        tag(key, URL, core, url),
        tag(key, ADDRESS, core, clientAddress));
  }

  /** Whether this ring holds the token's key. */
  boolean knowsKey(QueueToken token) {
    return keys.key(token.keyId()) != null;
  }

  boolean sealValid(QueueToken token) {
    return check(token, SEAL, null, token.seal());
  }

  boolean urlValid(QueueToken token, String url) {
    return check(token, URL, url, token.urlTag());
  }

  boolean addressValid(QueueToken token, String clientAddress) {
    return check(token, ADDRESS, clientAddress, token.addressTag());
  }

  private boolean check(QueueToken token, byte label, String bound, byte[] presented) {
    SecretKeySpec key = keys.key(token.keyId());
    return key != null && MessageDigest.isEqual(tag(key, label, token.core(), bound), presented);
  }

  private static byte[] tag(SecretKeySpec key, byte label, byte[] core, String bound) {
    Mac mac = mac(key);
    mac.update(label);
    mac.update(core);
    if (bound != null) {
      mac.update(bound.getBytes(StandardCharsets.UTF_8));
    }
    return Arrays.copyOf(mac.doFinal(), QueueToken.TAG_BYTES);
  }

  private static Mac mac(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance(KeyRing.ALGORITHM);
      mac.init(key);
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      // Every Java 17 runtime has HmacSHA256; reaching here means a broken JCE setup.
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
