package org.overloadcontrol.sample;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.overloadcontrol.internal.config.Durations;

/**
 * The shop's own settings, read once at start-up: servlet context-params in web.xml, each
 * overridable by a system property of the same name. A bad value stops the shop from starting
 * with a message naming the key and value.
 *
 * @param timeScale multiplies every Table 2 service time ({@code shop.timeScale}, default 1.0;
 *     0.1 runs the shop ten times faster, 0 removes the simulated work)
 * @param dbConnections the size of the simulated connection pool ({@code shop.dbConnections},
 *     default 4): with the service times it sets the shop's capacity
 * @param dbWait how long a page waits for a free connection before the shop itself answers 503
 *     ({@code shop.dbWait}, default 30s)
 */
public record ShopSettings(double timeScale, int dbConnections, Duration dbWait) {

  public static final String TIME_SCALE = "shop.timeScale";
  public static final String DB_CONNECTIONS = "shop.dbConnections";
  public static final String DB_WAIT = "shop.dbWait";

  public ShopSettings {
    if (!(timeScale >= 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException(TIME_SCALE + " must be a number >= 0, was " + timeScale);
    }
    if (dbConnections < 1) {
      throw new IllegalArgumentException(
          DB_CONNECTIONS + " must be at least 1, was " + dbConnections);
    }
    if (dbWait.isNegative()) {
      throw new IllegalArgumentException(DB_WAIT + " must not be negative, was " + dbWait);
    }
  }

  /** The defaults: time scale 1.0, 4 connections, 30 s wait. */
  public static ShopSettings defaults() {
    return new ShopSettings(1.0, 4, Duration.ofSeconds(30));
  }

  /**
   * Reads the settings; a key's system property wins over its context-param, and a key set in
   * neither keeps its default.
   *
   * @param contextParams the context-param of a name, or null
   * @param systemProperties the system property of a name, or null
   * @throws IllegalArgumentException naming the key and the value when a value is not allowed
   */
  public static ShopSettings read(
      UnaryOperator<String> contextParams, UnaryOperator<String> systemProperties) {
    ShopSettings d = defaults();
    String scale = lookup(TIME_SCALE, contextParams, systemProperties);
    String connections = lookup(DB_CONNECTIONS, contextParams, systemProperties);
    String wait = lookup(DB_WAIT, contextParams, systemProperties);
    double timeScale = d.timeScale();
    int dbConnections = d.dbConnections();
    Duration dbWait = d.dbWait();
    try {
      if (scale != null) {
        timeScale = Double.parseDouble(scale);
      }
    } catch (NumberFormatException e) {
      throw bad(TIME_SCALE, scale, "a number >= 0 such as 1.0 or 0.1");
    }
    try {
      if (connections != null) {
        dbConnections = Integer.parseInt(connections);
      }
    } catch (NumberFormatException e) {
      throw bad(DB_CONNECTIONS, connections, "a whole number >= 1");
    }
    try {
      if (wait != null) {
        dbWait = Durations.parse(wait);
      }
    } catch (IllegalArgumentException e) {
      throw bad(DB_WAIT, wait, Durations.ALLOWED);
    }
    try {
      return new ShopSettings(timeScale, dbConnections, dbWait);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sample shop: " + e.getMessage());
    }
  }

  private static String lookup(
      String key, UnaryOperator<String> contextParams, UnaryOperator<String> systemProperties) {
    String value = systemProperties.apply(key);
    if (value == null || value.isBlank()) {
      value = contextParams.apply(key);
    }
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static IllegalArgumentException bad(String key, String value, String allowed) {
    return new IllegalArgumentException(
        "sample shop: " + key + " = '" + value + "' is not allowed; expected " + allowed);
  }
}
