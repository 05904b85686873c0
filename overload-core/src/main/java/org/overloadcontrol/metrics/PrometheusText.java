package org.overloadcontrol.metrics;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.dropwizard.samplebuilder.DefaultSampleBuilder;
import io.prometheus.client.dropwizard.samplebuilder.SampleBuilder;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a Dropwizard registry in the Prometheus text format (version 0.0.4) through the
 * Prometheus Java client's Dropwizard bridge. The filter's own metrics become labelled families
 * ({@code overload_arrivals{endpoint="search",class="search"}}, see {@link MetricNames}); any
 * other metric in an application's registry keeps the bridge's default name.
 */
public final class PrometheusText {

  /** The content type of the text format. */
  public static final String CONTENT_TYPE = TextFormat.CONTENT_TYPE_004;

  private final CollectorRegistry collectors = new CollectorRegistry();

  /**
   * @param registry the registry to expose
   * @param ids the filter's metrics, by Dropwizard name, with their families and labels (read
   *     at each scrape, so metrics registered later appear)
   */
  public PrometheusText(MetricRegistry registry, Map<String, MetricId> ids) {
    new DropwizardExports(registry, new LabelledSampleBuilder(ids)).register(collectors);
  }

  /** Writes every metric. */
  public void write(Writer out) throws IOException {
    TextFormat.write004(out, collectors.metricFamilySamples());
  }

  /** Maps the filter's metrics to their families and labels; others get the default mapping. */
  private static final class LabelledSampleBuilder implements SampleBuilder {
    private final Map<String, MetricId> ids;
    private final DefaultSampleBuilder fallback = new DefaultSampleBuilder();

    LabelledSampleBuilder(Map<String, MetricId> ids) {
      this.ids = ids;
    }

    @Override
    public Collector.MetricFamilySamples.Sample createSample(String dropwizardName,
        String nameSuffix, List<String> additionalLabelNames,
        List<String> additionalLabelValues, double value) {
      MetricId id = ids.get(dropwizardName);
      if (id == null) {
        return fallback.createSample(dropwizardName, nameSuffix, additionalLabelNames,
            additionalLabelValues, value);
      }
      List<String> names = new ArrayList<>(id.labelNames());
      List<String> values = new ArrayList<>(id.labelValues());
      if (additionalLabelNames != null) {
        names.addAll(additionalLabelNames);
        values.addAll(additionalLabelValues);
      }
      String suffix = nameSuffix == null ? "" : nameSuffix;
      return new Collector.MetricFamilySamples.Sample(id.family() + suffix, names, values, value);
    }
  }
}
