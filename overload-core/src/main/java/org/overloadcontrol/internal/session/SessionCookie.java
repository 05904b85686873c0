package org.overloadcontrol.internal.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * Mints and checks the value of the session cookie: {@code keyId.sessionId.tag}, the session id
 * 16 random bytes and the tag the first 16 bytes of an HMAC-SHA256 over a label of its own, the
 * key id and the session id (the virtual queue's key ring, so keys rotate the same way). A
 * client can neither mint an id the filter will recognise nor alter one: the tag is checked in
 * constant time before the table is looked at, and an id the table does not hold gives no
 * precedence anyway (Cherkasova &amp; Phaal 2002 identify a session by a cookie the server sets).
 */
final class SessionCookie {

  private static final byte[] LABEL = "overload-session/1".getBytes(StandardCharsets.US_ASCII);
  private static final int ID_BYTES = 16;
  private static final int TAG_BYTES = 16;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final CookieKeys keys;
  private final SecureRandom random;

  SessionCookie(CookieKeys keys, SecureRandom random) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** A new session id. */
  String newId() {
    byte[] id = new byte[ID_BYTES];
    random.nextBytes(id);
    return ENCODER.encodeToString(id);
  }

  /** The cookie value naming session {@code id}, signed with the current key. */
  String value(String id) {
    String keyId = keys.currentId();
    return keyId + "." + id + "." + ENCODER.encodeToString(tag(keyId, id));
  }

  /** The session id of a cookie value whose tag is valid, or null. */
  String verify(String value) {
    if (value == null || value.length() > 120) {
      return null;
    }
    int first = value.indexOf('.');
    int second = value.indexOf('.', first + 1);
    if (first <= 0 || second <= first + 1 || value.indexOf('.', second + 1) >= 0) {
      return null;
    }
    String keyId = value.substring(0, first);
    String id = value.substring(first + 1, second);
    byte[] presented;
    try {
      presented = DECODER.decode(value.substring(second + 1));
    } catch (IllegalArgumentException e) {
      return null;
    }
    byte[] expected = tag(keyId, id);
    return expected != null && MessageDigest.isEqual(expected, presented) ? id : null;
  }

  private byte[] tag(String keyId, String id) {
    byte[] k = keyId.getBytes(StandardCharsets.UTF_8);
    byte[] i = id.getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[LABEL.length + 2 + k.length + i.length];
    System.arraycopy(LABEL, 0, data, 0, LABEL.length);
    data[LABEL.length] = (byte) k.length;
    System.arraycopy(k, 0, data, LABEL.length + 1, k.length);
    data[LABEL.length + 1 + k.length] = 0;
    System.arraycopy(i, 0, data, LABEL.length + 2 + k.length, i.length);
    byte[] mac = keys.hmac(keyId, data);
    return mac == null ? null : Arrays.copyOf(mac, TAG_BYTES);
  }
}
