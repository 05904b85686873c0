package org.overloadcontrol.limiter;

/**
 * Registers an admission algorithm under a name, the value of {@code admission.controller} (or
 * {@code admission.groups.<g>.controller}) that chooses it. Listed in {@code
 * META-INF/services/org.overloadcontrol.limiter.LimiterProvider}, found with {@link
 * java.util.ServiceLoader} when the configuration is read.
 */
public interface LimiterProvider {

  /** The name the configuration chooses it by; not {@code concurrency} or {@code rate}. */
  String name();

  /**
   * The limiter of one request class at one endpoint, created when the class first arrives
   * there. Endpoints of one group that share a resource may share a limiter: key it by
   * {@link LimiterContext#group()}.
   */
  Limiter create(LimiterContext context);
}
