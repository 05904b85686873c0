package org.overloadcontrol.cluster.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.SSLConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * Translates the {@code cluster.} settings into a Hazelcast member configuration: TCP/IP join
 * with the listed members (multicast and cloud auto-detection off unless asked for), one
 * interface and port, TLS settings passed through, and nothing that phones home.
 */
final class MemberConfig {

  private MemberConfig() {}

  static Config of(ClusterSettings settings) {
    Config config = load(settings.configFile());
    config.setClusterName(settings.name());
    config.setClassLoader(MemberConfig.class.getClassLoader());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    // The runtime leaves the cluster when the filter stops; a JVM hook would race it.
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(false);
    if (settings.address() != null) {
      network.getInterfaces().setEnabled(true).addInterface(settings.address());
      network.setPublicAddress(settings.address() + ":" + settings.port());
      config.setProperty("hazelcast.local.localAddress", settings.address());
    }
    JoinConfig join = network.getJoin();
    join.getAutoDetectionConfig().setEnabled(false);
    join.getMulticastConfig().setEnabled(settings.multicast());
    join.getTcpIpConfig().setEnabled(!settings.multicast()).setMembers(settings.members());
    if (settings.tls()) {
      SSLConfig ssl = new SSLConfig().setEnabled(true);
      put(ssl, "keyStore", settings.keyStore());
      put(ssl, "keyStorePassword", settings.keyStorePassword());
      put(ssl, "trustStore", settings.trustStore());
      put(ssl, "trustStorePassword", settings.trustStorePassword());
      network.setSSLConfig(ssl);
    }
    return config;
  }

  private static void put(SSLConfig ssl, String name, String value) {
    if (value != null) {
      ssl.setProperty(name, value);
    }
  }

  private static Config load(String file) {
    if (file == null) {
      return new Config();
    }
    try {
      return Config.loadFromFile(Path.of(file).toFile());
    } catch (IOException | RuntimeException e) {
      throw OverloadConfigException.of(
          "cluster.configFile",
          file,
          null,
          "cannot read the Hazelcast configuration: " + e.getMessage());
    }
  }
}
