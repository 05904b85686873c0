package org.overloadcontrol.internal.virtualqueue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The virtual queue's ticket (WebQ §II-C) in its decoded form, and its compact URL-safe text.
 *
 * <p>Layout (Base64url without padding, at most {@link #MAX_TEXT_LENGTH} characters):
 * {@code version(1) idLength(1) keyId(1..16) checkInSecond(8) waitSeconds(4) nonce(8)
 * seal(16) urlTag(16) addressTag(16)}. The first fields up to the nonce are the <em>core</em>.
 * The three tags are HMAC-SHA256 outputs truncated to 128 bits (as the paper's 128-bit tags):
 * {@code seal} over the core, {@code urlTag} over core + URL, {@code addressTag} over core +
 * client address. Three tags instead of one let the checker tell an edited ticket from one used
 * for another page or from another client; each still needs the key to produce.
 *
 * <p>The nonce makes two tickets issued in the same second to the same address for the same
 * URL distinct, so replay protection does not refuse the second of two users behind one NAT.
 */
record QueueToken(
    String keyId,
    long checkInSecond,
    int waitSeconds,
    long nonce,
    byte[] seal,
    byte[] urlTag,
    byte[] addressTag) {

  static final byte VERSION = 1;
  static final int TAG_BYTES = 16;
  static final int MAX_TEXT_LENGTH = 128;

  /** The second at which the holder may reach the server. */
  long slotSecond() {
    return checkInSecond + waitSeconds;
  }

  /** The signed core bytes. */
  static byte[] core(String keyId, long checkInSecond, int waitSeconds, long nonce) {
    byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(2 + id.length + 8 + 4 + 8)
        .put(VERSION)
        .put((byte) id.length)
        .put(id)
        .putLong(checkInSecond)
        .putInt(waitSeconds)
        .putLong(nonce)
        .array();
  }

  byte[] core() {
    return core(keyId, checkInSecond, waitSeconds, nonce);
  }

  String encode() {
    byte[] core = core();
    byte[] all =
        ByteBuffer.allocate(core.length + 3 * TAG_BYTES)
            .put(core)
            .put(seal)
            .put(urlTag)
            .put(addressTag)
            .array();
    return Base64.getUrlEncoder().withoutPadding().encodeToString(all);
  }

  /** Decodes {@code text}, or returns null if it is not a well-formed token. */
  static QueueToken decode(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_TEXT_LENGTH) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (bytes.length < 3 || bytes[0] != VERSION) {
      return null;
    }
    int idLength = bytes[1];
    if (idLength < 1 || idLength > 16 || bytes.length != 2 + idLength + 20 + 3 * TAG_BYTES) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 2, bytes.length - 2);
    byte[] id = new byte[idLength];
    in.get(id);
    long checkIn = in.getLong();
    int wait = in.getInt();
    long nonce = in.getLong();
    if (wait < 0) {
      return null;
    }
    byte[] seal = new byte[TAG_BYTES];
    byte[] urlTag = new byte[TAG_BYTES];
    byte[] addressTag = new byte[TAG_BYTES];
    in.get(seal).get(urlTag).get(addressTag);
    return new QueueToken(
        new String(id, StandardCharsets.US_ASCII), checkIn, wait, nonce, seal, urlTag, addressTag);
  }

  /** A key for the replay set: the key id and seal identify one issued token. */
  String replayKey() {
    return keyId + '/' + Base64.getUrlEncoder().withoutPadding().encodeToString(seal);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueToken t
        && keyId.equals(t.keyId)
        && checkInSecond == t.checkInSecond
        && waitSeconds == t.waitSeconds
        && nonce == t.nonce
        && Arrays.equals(seal, t.seal)
        && Arrays.equals(urlTag, t.urlTag)
        && Arrays.equals(addressTag, t.addressTag);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(seal);
  }

  @Override
  public String toString() {
    return "QueueToken[" + keyId + ", checkIn=" + checkInSecond + ", wait=" + waitSeconds + "]";
  }
}
