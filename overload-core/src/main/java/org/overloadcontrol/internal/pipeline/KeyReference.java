package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.internal.bandwidth.BandwidthSettings;
import org.overloadcontrol.internal.cluster.ClusterSettingsReader;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.ConfigParser;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.metrics.MetricsSettingsReader;
import org.overloadcontrol.internal.metrics.StatusAccess;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.session.SessionSettings;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings;

/**
 * Every configuration key the library accepts, section by section, in the order of the
 * configuration reference: the one source of the reference page and of the Spring Boot
 * metadata. Each section's table lives beside the settings class that reads it; this class
 * only gathers them, and describes their keys to a reference outside the core ({@link #keys}).
 */
public final class KeyReference {

  private KeyReference() {}

  /** The key tables: the core keys first, then each section's. */
  public static List<KeyTable> tables() {
    List<KeyTable> tables = new ArrayList<>(ConfigParser.keyTables());
    tables.add(AdmissionSettings.keyTable());
    tables.add(QueueSettings.keyTable());
    tables.add(DegradeSettings.keyTable());
    tables.add(SessionSettings.keyTable());
    tables.add(VirtualQueueSettings.keyTable());
    tables.add(BandwidthSettings.keyTable());
    tables.add(ClusterSettingsReader.keyTable());
    tables.add(MetricsSettingsReader.keyTable());
    tables.add(StatusAccess.keyTable());
    return List.copyOf(tables);
  }

  /** Every key of {@link #tables}, in their order, as a reference lists them. */
  public static List<KeyDescription> keys() {
    List<KeyDescription> keys = new ArrayList<>();
    for (KeyTable table : tables()) {
      for (Key<?> key : table.keys()) {
        keys.add(KeyDescription.of(table, key));
      }
    }
    return List.copyOf(keys);
  }
}
