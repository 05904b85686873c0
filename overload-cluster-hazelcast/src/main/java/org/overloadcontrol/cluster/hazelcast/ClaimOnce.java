package org.overloadcontrol.cluster.hazelcast;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Marks a token used unless it already is, on the member that owns the key: Hazelcast runs an
 * entry processor atomically per key, so of two nodes claiming one token exactly one gets
 * {@code true}. The mark lives only as long as the token could still be valid.
 */
final class ClaimOnce implements EntryProcessor<String, Boolean, Boolean> {

  private static final long serialVersionUID = 1L;

  private final long keepMillis;

  ClaimOnce(long keepMillis) {
    this.keepMillis = keepMillis;
  }

  @Override
  public Boolean process(Map.Entry<String, Boolean> entry) {
    if (entry.getValue() != null) {
      return Boolean.FALSE;
    }
    ((ExtendedMapEntry<String, Boolean>) entry)
        .setValue(Boolean.TRUE, keepMillis, TimeUnit.MILLISECONDS);
    return Boolean.TRUE;
  }
}
