package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * README's pom and web.xml snippets are copies of files the build uses: each such code block is
 * preceded by a marker {@code <!-- snippet: PATH REGION -->} and equals (but for the common
 * indentation and trailing spaces) the lines between {@code snippet-start REGION} and
 * {@code snippet-end REGION} in PATH, a file of one of the build's modules. A user who copies a
 * snippet therefore copies what the build compiles and the integration tests run.
 */
class ReadmeSnippetsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern MARKER =
      Pattern.compile("^<!--\\s*snippet:\\s*(\\S+)\\s+(\\S+)\\s*-->\\s*$");

  /** What makes a code block a pom or web.xml snippet. */
  private static final Pattern BUILD_FILE =
      Pattern.compile("<dependency>|<web-app|<filter>|<filter-mapping>|<servlet>|<project\\b");

  @Test
  void everyPomAndWebXmlSnippetIsTheRegionItNames() throws IOException {
    List<String> modules = modules();
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Snippet snippet : snippets(Files.readString(ROOT.resolve("README.md")))) {
      boolean buildFile = BUILD_FILE.matcher(snippet.code()).find();
      if (snippet.path() == null) {
        if (buildFile) {
          problems.add(
              "README.md line "
                  + snippet.line()
                  + ": a pom or web.xml block without a <!-- snippet: PATH REGION --> line"
                  + " before it");
        }
        continue;
      }
      checked++;
      String where =
          "README.md line " + snippet.line() + " (" + snippet.path() + " " + snippet.region() + ")";
      String module =
          snippet.path().contains("/")
              ? snippet.path().substring(0, snippet.path().indexOf('/'))
              : "";
      if (!modules.contains(module)) {
        problems.add(where + ": not a file of a module the build has " + modules);
        continue;
      }
      Path file = ROOT.resolve(snippet.path());
      if (!Files.isRegularFile(file)) {
        problems.add(where + ": no such file");
        continue;
      }
      Optional<String> region =
          region(Files.readString(file, StandardCharsets.UTF_8), snippet.region());
      if (region.isEmpty()) {
        problems.add(
            where + ": no lines between snippet-start and snippet-end " + snippet.region());
      } else if (!normal(region.get()).equals(normal(snippet.code()))) {
        problems.add(where + ": differs from the file's region; it is:\n" + normal(region.get()));
      }
    }
    assertThat(problems).as("README snippets that are not the build's").isEmpty();
    assertThat(checked).as("snippets checked").isGreaterThanOrEqualTo(4);
  }

  @Test
  void aSnippetThatDriftedOrHasNoMarkerIsCaught() {
    String file =
        "<a>\n  <!-- snippet-start x -->\n  <filter>\n    <b/>\n  </filter>\n"
            + "  <!-- snippet-end x -->\n</a>\n";
    assertThat(region(file, "x")).contains("  <filter>\n    <b/>\n  </filter>");
    assertThat(region(file, "y")).isEmpty();
    assertThat(normal(region(file, "x").orElseThrow())).isEqualTo("<filter>\n  <b/>\n</filter>");
    List<Snippet> snippets =
        snippets(
            "<!-- snippet: sample-webapp/x.xml x -->\n```xml\n<filter>\n  <c/>\n</filter>\n```\n\n"
                + "```xml\n<dependency/>\n```\n");
    assertThat(snippets).hasSize(2);
    assertThat(snippets.get(0).region()).isEqualTo("x");
    assertThat(normal(snippets.get(0).code())).isNotEqualTo(normal(region(file, "x").get()));
    assertThat(snippets.get(1).path()).isNull();
  }

  /** A fenced code block of README, with the file and region its marker names, if any. */
  record Snippet(int line, String path, String region, String code) {}

  static List<Snippet> snippets(String markdown) {
    Node root =
        Parser.builder()
            .includeSourceSpans(org.commonmark.parser.IncludeSourceSpans.BLOCKS)
            .build()
            .parse(markdown);
    List<Snippet> snippets = new ArrayList<>();
    root.accept(
        new AbstractVisitor() {
          @Override
          public void visit(FencedCodeBlock block) {
            Node before = block.getPrevious();
            String path = null;
            String region = null;
            if (before instanceof HtmlBlock html) {
              Matcher m = MARKER.matcher(html.getLiteral().strip());
              if (m.matches()) {
                path = m.group(1);
                region = m.group(2);
              }
            }
            int line =
                block.getSourceSpans().isEmpty()
                    ? 0
                    : block.getSourceSpans().get(0).getLineIndex() + 1;
            snippets.add(new Snippet(line, path, region, block.getLiteral()));
          }
        });
    return snippets;
  }

  /** The lines strictly between the lines that hold snippet-start and snippet-end REGION. */
  static Optional<String> region(String file, String region) {
    Pattern start = Pattern.compile("snippet-start\\s+" + Pattern.quote(region) + "(\\s|-->|$)");
    Pattern end = Pattern.compile("snippet-end\\s+" + Pattern.quote(region) + "(\\s|-->|$)");
    List<String> lines = file.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (start.matcher(lines.get(i)).find()) {
        for (int j = i + 1; j < lines.size(); j++) {
          if (end.matcher(lines.get(j)).find()) {
            return Optional.of(String.join("\n", lines.subList(i + 1, j)));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Text without trailing spaces, blank lines at either end, or the lines' common indentation. */
  static String normal(String text) {
    List<String> lines = new ArrayList<>(text.lines().map(String::stripTrailing).toList());
    while (!lines.isEmpty() && lines.get(0).isEmpty()) {
      lines.remove(0);
    }
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    int indent =
        lines.stream()
            .filter(l -> !l.isEmpty())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    return String.join(
        "\n", lines.stream().map(l -> l.isEmpty() ? l : l.substring(indent)).toList());
  }

  /** The modules of the root pom. */
  private static List<String> modules() throws IOException {
    Matcher m =
        Pattern.compile("<module>([^<]+)</module>")
            .matcher(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8));
    List<String> modules = new ArrayList<>();
    while (m.find()) {
      modules.add(m.group(1).trim());
    }
    assertThat(modules).as("the root pom's modules").isNotEmpty();
    return modules;
  }
}
