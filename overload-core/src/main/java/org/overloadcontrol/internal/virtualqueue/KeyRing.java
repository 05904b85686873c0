package org.overloadcontrol.internal.virtualqueue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC keys of the virtual queue (WebQ §II-C: TokenGen and TokenCheck share a secret). The
 * first key is the current one and signs new tokens; the others only verify, so a key can be
 * rotated without refusing the tokens of users already waiting: add the new key first, keep the
 * old one second for at least the maximum wait plus the grace window, then drop it.
 *
 * <p>Text form (a key file, or an environment variable): entries {@code id:base64-key}
 * separated by white space, commas or semicolons; lines starting with {@code #} are comments.
 * An id is 1 to 16 letters, digits, {@code _} or {@code -}; a key is at least 32 bytes (the
 * HMAC-SHA256 block of security), standard or URL-safe Base64.
 */
public final class KeyRing {

  /** The shortest key accepted, in bytes. */
  public static final int MIN_KEY_BYTES = 32;

  static final String ALGORITHM = "HmacSHA256";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,16}");

  private final List<String> ids;
  private final Map<String, SecretKeySpec> keys;

  private KeyRing(Map<String, SecretKeySpec> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("no key: give at least one entry id:base64-key");
    }
    this.keys = Map.copyOf(keys);
    this.ids = List.copyOf(keys.keySet());
  }

  /**
   * Parses the text form.
   *
   * @throws IllegalArgumentException saying which entry is wrong and why (never the key bytes)
   */
  public static KeyRing parse(String text) {
    Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    for (String line : text.split("\\R")) {
      String content = line.strip();
      if (content.isEmpty() || content.startsWith("#")) {
        continue;
      }
      for (String entry : content.split("[\\s,;]+")) {
        if (entry.isEmpty()) {
          continue;
        }
        int colon = entry.indexOf(':');
        String id = colon < 0 ? entry : entry.substring(0, colon);
        if (colon < 0 || !ID.matcher(id).matches()) {
          throw new IllegalArgumentException(
              "entry "
                  + (keys.size() + 1)
                  + " is not id:base64-key with an id of 1-16 letters, digits, _ or -");
        }
        if (keys.containsKey(id)) {
          throw new IllegalArgumentException("key id '" + id + "' appears twice");
        }
        byte[] bytes;
        try {
          bytes =
              Base64.getDecoder()
                  .decode(entry.substring(colon + 1).replace('-', '+').replace('_', '/'));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("key '" + id + "' is not Base64");
        }
        if (bytes.length < MIN_KEY_BYTES) {
          throw new IllegalArgumentException(
              "key '"
                  + id
                  + "' has "
                  + bytes.length
                  + " bytes; at least "
                  + MIN_KEY_BYTES
                  + " are required");
        }
        keys.put(id, new SecretKeySpec(bytes, ALGORITHM));
      }
    }
    return new KeyRing(keys);
  }

  /** A ring with one fresh random key, id {@code dev}: for development only. */
  public static KeyRing random(SecureRandom random) {
    byte[] bytes = new byte[MIN_KEY_BYTES];
    random.nextBytes(bytes);
    Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    keys.put("dev", new SecretKeySpec(bytes, ALGORITHM));
    return new KeyRing(keys);
  }

  /** A new random key in the text form, e.g. for documentation and tooling. */
  public static String newEntry(String id, SecureRandom random) {
    byte[] bytes = new byte[MIN_KEY_BYTES];
    random.nextBytes(bytes);
    return id + ":" + Base64.getEncoder().encodeToString(bytes);
  }

  /** The id of the key that signs new tokens. */
  public String currentId() {
    return ids.get(0);
  }

  /** The key with {@code id}, or null if this ring does not hold it. */
  SecretKeySpec key(String id) {
    return keys.get(id);
  }

  /**
   * The HMAC-SHA256 of {@code data} under the key {@code id}, or null if this ring does not hold
   * it: for other features that sign what they hand to clients (session cookies) with the same
   * keys. Callers put a label of their own first in {@code data}, so that no tag of one kind
   * can stand in for another.
   */
  public byte[] hmac(String id, byte[] data) {
    SecretKeySpec key = keys.get(id);
    if (key == null) {
      return null;
    }
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(data);
    } catch (java.security.GeneralSecurityException e) {
      // Every Java 17 runtime has HmacSHA256; reaching here means a broken JCE setup.
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /** The ids, current first. */
  public List<String> ids() {
    return new ArrayList<>(ids);
  }
}
