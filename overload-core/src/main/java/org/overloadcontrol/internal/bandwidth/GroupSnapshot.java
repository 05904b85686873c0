package org.overloadcontrol.internal.bandwidth;

/**
 * One group's state at a moment, for metrics and the status page.
 *
 * @param name the group
 * @param allocatedBytesPerSecond b_i
 * @param averageBytesPerSecond b̂_i
 * @param active whether a request arrived since the manager's last round
 * @param delayedCount requests in the delayed stage now
 * @param admittedCount requests admitted (at once or after a delay) so far
 * @param refusedCount requests refused so far
 */
public record GroupSnapshot(
    String name,
    double allocatedBytesPerSecond,
    double averageBytesPerSecond,
    boolean active,
    int delayedCount,
    long admittedCount,
    long refusedCount) {}
