package org.overloadcontrol.internal.degrade;

/**
 * The degradation settings of one endpoint, validated.
 *
 * @param endpoint the endpoint's name
 * @param targetNanos the p90 response-time target the quality controller holds
 * @param minQuality q_min, the lowest quality, in [0, 1]
 * @param decrease how a missed target lowers the quality
 * @param step the cut: a fraction of the current quality (multiplicative) or of full quality
 *     (additive), in (0, 1)
 * @param raiseStep what one period under the target adds to the quality, in (0, 1]
 * @param raiseBelow raise only when p90 &lt; raiseBelow·target, in (0, 1]: a dead band so a p90
 *     sitting at the target neither raises nor lowers
 * @param periodNanos how often the controller compares p90 with the target
 * @param mode degradation alone or combined with admission control
 */
public record EndpointDegradeSettings(
    String endpoint,
    long targetNanos,
    double minQuality,
    DecreaseRule decrease,
    double step,
    double raiseStep,
    double raiseBelow,
    long periodNanos,
    DegradeMode mode) {}
