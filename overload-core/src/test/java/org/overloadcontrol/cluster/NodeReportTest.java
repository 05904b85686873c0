package org.overloadcontrol.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** A report crosses the wire between members, possibly of two versions during an upgrade. */
class NodeReportTest {

  /**
   * A report as the version before {@code fraction} was added wrote it (serialVersionUID 1, no
   * fraction, no format): node "node-old", load 12.
   */
  private static final String VERSION_ONE =
      "rO0ABXNyACZvcmcub3ZlcmxvYWRjb250cm9sLmNsdXN0ZXIuTm9kZVJlcG9ydAAAAAAAAAABAgAJRAAQ"
          + "Y2FwYWNpdHlFc3RpbWF0ZVoAB2xlYXZpbmdEAARsb2FkRAAKbG9hZEJlZm9yZUoADXNjaGVkdWxlZEZy"
          + "b21KAAZzZWNvbmRMAAZncm91cHN0AA9MamF2YS91dGlsL01hcDtMAARub2RldAASTGphdmEvbGFuZy9T"
          + "dHJpbmc7WwAJc2NoZWR1bGVkdAACW0R4cH/4AAAAAAAAAEAoAAAAAAAAQCYAAAAAAAAAAAAAZVPxAAAA"
          + "AABlU/EAc3IAEWphdmEudXRpbC5Db2xsU2VyV46rtjobqBEDAAFJAAN0YWd4cAAAAAN3BAAAAAJ0AAFB"
          + "c3IALG9yZy5vdmVybG9hZGNvbnRyb2wuY2x1c3Rlci5Ob2RlUmVwb3J0JEdyb3VwAAAAAAAAAAECAANa"
          + "AAZhY3RpdmVEAAhhcnJpdmFsc0QADmJ5dGVzUGVyU2Vjb25keHABQAAAAAAAAABAj0AAAAAAAHh0AAhu"
          + "b2RlLW9sZHVyAAJbRD6mjBSrY1oeAgAAeHAAAAACQAgAAAAAAABAAAAAAAAAAA==";

  private static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    }
  }

  @Test
  void aReportOfTheVersionBeforeTheFractionIsRefusedNotReadAsHoldingNothing() {
    // Read as this version, the missing fraction would be 0: the old member would seem to
    // hold no part of C, and this one would take its room.
    assertThatThrownBy(() -> read(Base64.getDecoder().decode(VERSION_ONE)))
        .isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("node-old sent a cluster report of format 0")
        .hasMessageContaining("run one version on all members");
  }

  @Test
  void aReportOfThisVersionReadsBackWhole() throws Exception {
    NodeReport report =
        new NodeReport.Builder("a", 100)
            .queue(12, 11, Double.NaN, 0.25, 100, new double[] {3, 2})
            .group("A", new NodeReport.Group(1000, 2, true, 0.5))
            .leaving()
            .build();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(report);
    }
    NodeReport back = (NodeReport) read(bytes.toByteArray());
    assertThat(back.fraction()).isEqualTo(0.25);
    assertThat(back.leaving()).isTrue();
    assertThat(back.scheduledAt(101)).isEqualTo(2);
    assertThat(back.groups()).containsEntry("A", new NodeReport.Group(1000, 2, true, 0.5));
  }
}
