package org.overloadcontrol.internal.capacity;

/**
 * Where the virtual queue gets the server's capacity C and the relative hardness of each request
 * type (WebQ §IV): configured ({@link FixedCapacity}) or estimated from passive measurements
 * ({@link PassiveCapacity}). Capacity is in hardness-weighted subunits per second;
 * {@link Double#POSITIVE_INFINITY} means "do not shape" (a training period, when nobody waits).
 * The virtual queue reports the requests it lets through and their completions.
 */
public interface CapacitySource {

  /** The capacity in subunits per second at ticker time {@code nowNanos}. */
  double capacity(long nowNanos);

  /** The relative hardness of {@code type}, in subunits (1 for a type never seen). */
  double hardness(String type);

  /** A request of {@code type} reached the server. */
  default void arrived(String type, long nowNanos) {}

  /** A request of {@code type} completed after {@code responseNanos}. */
  default void completed(String type, long responseNanos, boolean success, long nowNanos) {}
}
