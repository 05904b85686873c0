package org.overloadcontrol.internal.pipeline;

import java.util.List;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * Writes the configuration reference (docs/reference.md) from the code's key tables
 * ({@link KeyReference}): one Markdown table per section with each key's type, default, meaning
 * and whether it can change while the filter runs. {@link ReferencePageTest} holds the checked-in
 * page to what this writes.
 */
final class ReferencePage {

  /** The one command that rewrites the page, from the project's root. */
  static final String REGENERATE =
      "mvn -pl overload-core -am test -Dtest=ReferencePageTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dreference.write=true";

  private ReferencePage() {}

  /** The page for {@code tables}. */
  static String render(List<KeyTable> tables) {
    StringBuilder b = new StringBuilder();
    b.append("# Configuration reference\n\n")
        .append("<!-- Generated from the key tables in the code; do not edit. To regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append(
            "Every key the library accepts, with its default and meaning. A key is given as a"
                + " filter init-param, in the YAML file (`overload.yaml`), to a builder's `put`,"
                + " or under `overload:` in a Spring Boot application. A name in angle brackets"
                + " (`<e>` an endpoint, `<c>` a request class, `<g>` a group, `<parameter>` a"
                + " rate controller parameter) or `NAME` is one you choose. An unknown key or a"
                + " bad value stops the filter or handler at start, naming the key. The last"
                + " column says whether a running filter or handler takes a new value when it"
                + " reloads (guide/reload.md): yes; no (read once, at start: a reload that"
                + " changes it is refused, saying why); alone (yes on a single node, no in a"
                + " cluster, whose nodes share it).\n\n");
    for (KeyTable table : tables) {
      b.append("## ").append(table.title()).append("\n\n");
      b.append("| key | type | default | meaning | run-time change |\n");
      b.append("|---|---|---|---|---|\n");
      for (Key<?> key : table.keys()) {
        b.append("| `")
            .append(cell(table.fullName(key)))
            .append("` | ")
            .append(cell(key.type()))
            .append(" | ")
            .append(cell(key.defaultValue()))
            .append(" | ")
            .append(cell(key.meaning()))
            .append(" | ")
            .append(RestartOnlyKeys.runTimeChange(table.fullName(key)))
            .append(" |\n");
      }
      b.append('\n');
    }
    return b.toString().stripTrailing() + "\n";
  }

  /** A table cell: a pipe would end the cell early, so it is escaped. */
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
