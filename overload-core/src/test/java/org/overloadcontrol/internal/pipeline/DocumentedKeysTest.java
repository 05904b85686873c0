package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * What README and the pages under docs/ say about configuration keys agrees with the key tables
 * in the code (the generated reference): every key a Markdown table lists, and every key a code
 * span names ({@code queue.maxWait}, {@code endpoints.search.target}, in Spring's form
 * {@code overload.queue.max-wait}), is a key of the reference or the start of some
 * ({@code admission.groups}); and a table that gives a key's
 * default gives the reference's. A key is recognised by its first segment: a section
 * ({@code queue.}) or a core key's ({@code endpoints.}); other dotted names (metric names, the
 * sample shop's {@code shop.} settings, Spring's own {@code overload.spring.}) are not keys.
 */
class DocumentedKeysTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Parser MARKDOWN =
      Parser.builder().extensions(List.of(TablesExtension.create())).build();
  private static final Pattern KEY_TOKEN = Pattern.compile("^[A-Za-z][A-Za-z0-9_.<>#-]*");

  /** A key of the reference, with the table it is in. */
  private record Entry(KeyTable table, Key<?> key) {
    String fullName() {
      return table.fullName(key);
    }

    Pattern pattern() {
      return Pattern.compile(
          (table.prefix().isEmpty() ? "" : Pattern.quote(table.prefix() + ".")) + key.pattern());
    }

    boolean matches(String written) {
      return pattern().matcher(written).matches();
    }

    /** Whether {@code written} is the start of keys of this form ({@code admission.groups}). */
    boolean startsWith(String written) {
      Matcher m = pattern().matcher(written + ".");
      return !m.matches() && m.hitEnd();
    }
  }

  private static final List<Entry> REFERENCE = reference();

  private static List<Entry> reference() {
    List<Entry> entries = new ArrayList<>();
    for (KeyTable table : KeyReference.tables()) {
      table.keys().forEach(k -> entries.add(new Entry(table, k)));
    }
    return entries;
  }

  /** The first segments that make a dotted name a key: the sections and the core keys'. */
  private static final Set<String> ROOTS = roots();

  private static Set<String> roots() {
    Set<String> roots = new TreeSet<>();
    for (Entry e : REFERENCE) {
      String name = e.fullName();
      int dot = name.indexOf('.');
      if (dot > 0) {
        roots.add(name.substring(0, dot));
      }
    }
    return roots;
  }

  static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
      files
          .filter(p -> p.toString().endsWith(".md"))
          .filter(p -> !p.endsWith("reference.md"))
          .sorted()
          .forEach(docs::add);
    }
    return docs;
  }

  @Test
  void everyKeyTheDocumentationNamesIsInTheReferenceWithItsDefault() throws IOException {
    List<String> problems = new ArrayList<>();
    int tableRows = 0;
    int mentions = 0;
    for (Path doc : documents()) {
      String where = ROOT.relativize(doc).toString();
      Node root = MARKDOWN.parse(Files.readString(doc, StandardCharsets.UTF_8));
      for (Row row : keyRows(root)) {
        tableRows++;
        check(where + " (table)", row, problems);
      }
      for (String span : codeSpans(root)) {
        Optional<String> key = keyIn(span);
        if (key.isPresent()) {
          mentions++;
          String k = key.get();
          if (find(k).isEmpty() && REFERENCE.stream().noneMatch(e -> e.startsWith(k))) {
            problems.add(where + ": `" + span + "` names no key of the reference");
          }
        }
      }
    }
    assertThat(problems)
        .as(
            "keys in README and docs/ that contradict the key tables in the code"
                + " (docs/reference.md; %d table rows and %d mentions checked)",
            tableRows, mentions)
        .isEmpty();
    assertThat(mentions).as("key mentions found").isGreaterThan(20);
  }

  @Test
  void aMisspelledKeyOrAWrongDefaultIsCaught() {
    Node doc =
        MARKDOWN.parse(
            "| key | default | meaning |\n|---|---|---|\n"
                + "| `queue.maxWait` | `20s` | longest wait |\n"
                + "| `queue.permitz` | | typo |\n\n"
                + "Set `overload.queue.max-wait` or `sessions.maxWiat`.\n");
    List<String> problems = new ArrayList<>();
    keyRows(doc).forEach(row -> check("test", row, problems));
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).contains("queue.maxWait").contains("`10s`");
    assertThat(problems.get(1)).contains("queue.permitz");
    assertThat(codeSpans(doc).stream().map(DocumentedKeysTest::keyIn).flatMap(Optional::stream))
        .containsExactly("queue.maxWait", "sessions.maxWiat");
    assertThat(find("queue.maxWait")).isPresent();
    assertThat(find("sessions.maxWiat")).isEmpty();
    assertThat(find("controller.alpha").orElseThrow().key().defaultValue()).isEqualTo("0.7");
    assertThat(REFERENCE.stream().anyMatch(e -> e.startsWith("admission.groups"))).isTrue();
    assertThat(REFERENCE.stream().anyMatch(e -> e.startsWith("admission.group"))).isFalse();
  }

  /** One row of a key table: the keys of its first cell, and its default cell if it has one. */
  private record Row(List<String> keys, String defaults) {}

  private static void check(String where, Row row, List<String> problems) {
    String[] defaults = row.defaults() == null ? null : row.defaults().split(" / ");
    for (int i = 0; i < row.keys().size(); i++) {
      String written = row.keys().get(i);
      Optional<Entry> entry = find(written);
      if (entry.isEmpty()) {
        if (ROOTS.contains(root(written))) { // not the shop's `shop.` settings, say
          problems.add(where + ": `" + written + "` is no key of the reference");
        }
        continue;
      }
      if (defaults == null) {
        continue;
      }
      String shown =
          defaults.length == row.keys().size() ? defaults[i] : row.defaults(); // "a / b" per key
      String expected = entry.get().key().defaultValue();
      if (!normal(shown).equals(normal(expected)) && !normal(shown).equals("as above")) {
        problems.add(
            where
                + ": `"
                + written
                + "` default '"
                + shown.trim()
                + "', the reference says '"
                + expected
                + "'");
      }
    }
  }

  private static String root(String key) {
    int dot = key.indexOf('.');
    return dot < 0 ? key : key.substring(0, dot);
  }

  /** A default as written, without the code marks and spacing that do not change it. */
  private static String normal(String cell) {
    return cell.replace("`", "").replaceAll("\\s+", " ").trim();
  }

  /** The key written so, by its exact name first ({@code controller.alpha}), then by form. */
  private static Optional<Entry> find(String written) {
    return REFERENCE.stream()
        .filter(e -> e.fullName().equals(written))
        .findFirst()
        .or(() -> REFERENCE.stream().filter(e -> e.matches(written)).findFirst());
  }

  /**
   * The key a code span names, in the library's form, or nothing when it names none: the dotted
   * name at its start ({@code queue.permits=32} names {@code queue.permits}) when its first
   * segment is a section or a core key's, Spring's {@code overload.} form turned back.
   */
  static Optional<String> keyIn(String span) {
    Matcher m = KEY_TOKEN.matcher(span.trim());
    if (!m.find()) {
      return Optional.empty();
    }
    String token = m.group();
    if (token.endsWith(".") || token.matches("[a-z]+\\.[A-Z][A-Za-z0-9]*")) {
      return Optional.empty(); // the start of a family of keys, or a class in a package
    }
    if (token.startsWith("overload.")) {
      token = relaxed(token.substring("overload.".length()));
    }
    if (!token.contains(".") || !ROOTS.contains(root(token))) {
      return Optional.empty();
    }
    int end = m.end();
    String rest = span.trim().substring(end);
    if (rest.startsWith("*") || rest.startsWith("(") || token.endsWith("*")) {
      return Optional.empty(); // a family of keys (`admission.*`, `degrade.(step|period)`)
    }
    return Optional.of(token);
  }

  /** Spring's kebab-case in the first and last segment, turned back into the library's. */
  private static String relaxed(String key) {
    String[] parts = key.split("\\.", -1);
    parts[0] = camel(parts[0]);
    parts[parts.length - 1] = camel(parts[parts.length - 1]);
    return String.join(".", parts);
  }

  private static String camel(String segment) {
    StringBuilder b = new StringBuilder();
    boolean up = false;
    for (char c : segment.toCharArray()) {
      if (c == '-') {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  /** The inline code spans of a document, outside tables (their rows are checked as rows). */
  private static List<String> codeSpans(Node root) {
    List<String> spans = new ArrayList<>();
    root.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Code code) {
            spans.add(code.getLiteral());
          }

          @Override
          public void visit(CustomBlock block) {
            if (!(block instanceof TableBlock)) {
              visitChildren(block);
            }
          }
        });
    return spans;
  }

  /**
   * The rows of the tables headed "key" or "parameter", their keys written in full: a relative
   * `.c` after `a.b` is `a.c`; a "parameter" table's keys are under {@code controller.}; a table
   * under a heading that names a section's prefix ({@code virtualQueue.}) lists its keys
   * relative to it.
   */
  private static List<Row> keyRows(Node root) {
    List<Row> rows = new ArrayList<>();
    String[] prefix = {""};
    for (Node n = root.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Heading h) {
        prefix[0] = headingPrefix(h);
      } else if (n instanceof TableBlock table) {
        rows.addAll(tableRows(table, prefix[0]));
      }
    }
    return rows;
  }

  private static String headingPrefix(Heading h) {
    List<String> codes = new ArrayList<>();
    h.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Code code) {
            codes.add(code.getLiteral());
          }
        });
    return codes.stream()
        .filter(c -> c.matches("[A-Za-z]+\\.") && ROOTS.contains(c.substring(0, c.length() - 1)))
        .findFirst()
        .orElse("");
  }

  private static List<Row> tableRows(TableBlock table, String headingPrefix) {
    List<Row> rows = new ArrayList<>();
    List<String> header = null;
    for (Node part = table.getFirstChild(); part != null; part = part.getNext()) {
      for (Node r = part.getFirstChild(); r != null; r = r.getNext()) {
        if (!(r instanceof TableRow)) {
          continue;
        }
        List<Node> cells = new ArrayList<>();
        for (Node c = r.getFirstChild(); c != null; c = c.getNext()) {
          if (c instanceof TableCell) {
            cells.add(c);
          }
        }
        if (part instanceof TableHead) {
          header = cells.stream().map(DocumentedKeysTest::text).toList();
          continue;
        }
        if (header == null || header.isEmpty()) {
          continue;
        }
        String kind = header.get(0).toLowerCase(Locale.ROOT);
        if (!kind.equals("key") && !kind.equals("parameter")) {
          continue;
        }
        String prefix = kind.equals("parameter") ? "controller." : headingPrefix;
        int defaultColumn = header.indexOf("default");
        List<String> keys = new ArrayList<>();
        String base = null;
        for (String code : codes(cells.get(0))) {
          if (code.startsWith(".") && base != null) {
            keys.add(base.substring(0, base.lastIndexOf('.')) + code);
          } else {
            base = prefix + code;
            keys.add(base);
          }
        }
        List<String> expanded = new ArrayList<>();
        keys.forEach(k -> expanded.addAll(alternatives(k)));
        String defaults =
            defaultColumn > 0 && defaultColumn < cells.size()
                ? markdown(cells.get(defaultColumn))
                : null;
        rows.add(new Row(expanded, defaults));
      }
    }
    return rows;
  }

  /** {@code degrade.(step|period)}, as a table writes it, is two keys. */
  static List<String> alternatives(String written) {
    String key = written.replace("\\|", "|");
    Matcher group = Pattern.compile("\\(([^()]*)\\)").matcher(key);
    if (!group.find()) {
      return List.of(key);
    }
    List<String> keys = new ArrayList<>();
    for (String choice : group.group(1).split("\\|")) {
      keys.addAll(
          alternatives(key.substring(0, group.start()) + choice + key.substring(group.end())));
    }
    return keys;
  }

  private static List<String> codes(Node cell) {
    List<String> codes = new ArrayList<>();
    cell.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Code code) {
            codes.add(code.getLiteral());
          }
        });
    return codes;
  }

  private static String text(Node cell) {
    StringBuilder b = new StringBuilder();
    cell.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Text t) {
            b.append(t.getLiteral());
          }

          @Override
          public void visit(Code c) {
            b.append(c.getLiteral());
          }
        });
    return b.toString().trim();
  }

  /** A cell as its Markdown source would read: code spans in backquotes. */
  private static String markdown(Node cell) {
    StringBuilder b = new StringBuilder();
    cell.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Text t) {
            b.append(t.getLiteral());
          }

          @Override
          public void visit(Code c) {
            b.append('`').append(c.getLiteral()).append('`');
          }
        });
    return b.toString().trim();
  }
}
