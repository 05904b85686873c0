package org.overloadcontrol.internal.cluster;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The keys of {@link ClusterSettings} ({@code cluster.}), with their defaults and meanings. A
 * node joins its cluster once, when it starts: none of them changes while it runs.
 */
final class ClusterKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "cluster",
          "Several nodes (`cluster.`)",
          fixed(
              "enabled",
              "boolean",
              "`false`",
              "share the virtual queue and bandwidth shares with the other nodes"),
          fixed("name", "text", "`overload-control`", "members with another name never join"),
          fixed(
              "members",
              "addresses",
              "(required unless multicast)",
              "the members' `host[:port]`, comma-separated (TCP/IP join)"),
          fixed(
              "address",
              "address",
              "all interfaces",
              "the interface this member binds and" + " announces"),
          fixed("port", "integer", "`5701`", "this member's port"),
          fixed(
              "multicast",
              "boolean",
              "`false`",
              "find the members by multicast instead of `cluster.members`"),
          fixed(
              "expectedNodes",
              "integer",
              "the number of members",
              "how many nodes share the capacity until all have been heard"),
          fixed(
              "callTimeout",
              "duration",
              "`50ms`",
              "longest a request waits on the cluster (1ms to 10s)"),
          fixed(
              "forgetAfter",
              "duration",
              "`30s`",
              "a node silent this long is dropped from the view; its part of C stays reserved"
                  + " for it (5s to 1h)"),
          fixed(
              "configFile",
              "path",
              "none",
              "a Hazelcast XML or YAML file to start from (the keys above still apply)"),
          fixed(
              "tls.keyStore",
              "path",
              "none",
              "TLS between members: the key store, passed to Hazelcast's SSL configuration"),
          fixed("tls.keyStorePassword", "text", "none", "the key store's password"),
          fixed("tls.trustStore", "path", "none", "the members' trust store for TLS"),
          fixed("tls.trustStorePassword", "text", "none", "the trust store's password"));

  private static Key<String> fixed(String name, String type, String defaultValue, String meaning) {
    return key(name, type, defaultValue, meaning);
  }

  private ClusterKeyTable() {}
}
