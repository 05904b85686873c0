package org.overloadcontrol.limiter;

/**
 * Where a {@link Limiter} is to admit: one request class at one endpoint of a resource group,
 * with what the configuration says about them.
 *
 * @param endpoint the endpoint's name
 * @param requestClass the request class's name
 * @param group the endpoint's resource group ({@code admission.groups.<g>}, else {@code
 *     default})
 * @param targetNanos the class's response-time target at the endpoint, 0 when it has none
 * @param maxLimit the group's {@code maxLimit}
 * @param initialLimit the group's {@code initialLimit}
 */
public record LimiterContext(
    String endpoint,
    String requestClass,
    String group,
    long targetNanos,
    int maxLimit,
    int initialLimit) {}
