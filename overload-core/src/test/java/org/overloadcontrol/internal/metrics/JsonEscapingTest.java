package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.JsonText;

/** The status documents and the refusal bodies escape strings the same way. */
class JsonEscapingTest {

  private static final String NASTY = "a\"b\\c\nd</script>&\u2028\u2029\u0001é";

  @Test
  void lineAndParagraphSeparatorsAreEscapedEverywhere() {
    assertThat(JsonText.quote("x\u2028y\u2029")).isEqualTo("\"x\\u2028y\\u2029\"");
    String written = new JsonWriter().beginArray().value(NASTY).endArray().toString();
    assertThat(written).isEqualTo("[" + JsonText.quote(NASTY) + "]");
  }
}
