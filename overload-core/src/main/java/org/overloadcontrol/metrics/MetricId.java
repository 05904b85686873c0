package org.overloadcontrol.metrics;

import java.util.List;

/**
 * One metric under its two names: the dotted name (Dropwizard, JMX: one name per series) and
 * the family with labels (Prometheus, Micrometer: one family per quantity, the endpoint and class
 * as labels or tags rather than in the name).
 *
 * @param dropwizardName e.g. {@code overload.endpoint.search.class.search.arrivals}
 * @param family e.g. {@code overload_arrivals}
 * @param labelNames e.g. {@code [endpoint, class]}
 * @param labelValues e.g. {@code [search, search]}
 */
public record MetricId(
    String dropwizardName, String family, List<String> labelNames, List<String> labelValues) {

  public MetricId {
    labelNames = List.copyOf(labelNames);
    labelValues = List.copyOf(labelValues);
    if (labelNames.size() != labelValues.size()) {
      throw new IllegalArgumentException("labels and values differ in number");
    }
  }
}
