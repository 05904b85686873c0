package org.overloadcontrol.sample;

import java.time.Duration;
import java.util.Locale;

/**
 * The shop's page types with their mean service times from LIFO-Pri's Table 2 (Singhmar et al.
 * 2004, §3.2.1: the time the paper's CGI scripts took, back-end calls included). Each name is
 * also the servlet name, hence the overload-control endpoint, and the request class; the classes'
 * ranks and utilities (Table 3) are on the servlets' {@code @RequestClass} annotations.
 *
 * <p>The cart and the product images are not in the paper's model: they do no database work.
 */
public enum ShopPage {
  HOME(200),
  BROWSE(300),
  SEARCH(300),
  DETAILS(222),
  LOGIN(280),
  SHIPPING(420),
  PAYMENT(500),
  CONFIRM(300),
  CART(0),
  IMAGES(0);

  private final long serviceMillis;

  ShopPage(long serviceMillis) {
    this.serviceMillis = serviceMillis;
  }

  /** The page's name: servlet name, endpoint, request class and {@code shop-page} meta value. */
  public String pageName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The Table 2 service time at time scale 1; zero for pages that do no database work. */
  public Duration serviceTime() {
    return Duration.ofMillis(serviceMillis);
  }

  /** The service time multiplied by {@code timeScale}, rounded to whole nanoseconds. */
  public Duration serviceTime(double timeScale) {
    return Duration.ofNanos(Math.round(serviceMillis * 1_000_000.0 * timeScale));
  }
}
