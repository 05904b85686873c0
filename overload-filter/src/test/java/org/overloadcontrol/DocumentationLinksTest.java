package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and image in README.md and docs/**.md points at a file or directory of the
 * repository, and every {@code #section} at a heading of its target (GitHub's heading anchors).
 * The docs must stand alone: a link to something kept outside the repository fails here.
 * Absolute URLs ({@code http:}, {@code https:}, {@code mailto:}) are not checked.
 */
class DocumentationLinksTest {

  /** The repository root: surefire runs in the module's directory. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Parser MARKDOWN =
      Parser.builder().extensions(List.of(TablesExtension.create())).build();

  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  @Test
  void everyRelativeLinkAndAnchorExists() throws IOException {
    List<Path> docs = documents();
    assertThat(docs)
        .as("README.md and docs/**.md under %s", ROOT)
        .allMatch(Files::isRegularFile)
        .hasSizeGreaterThan(5);
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path doc : docs) {
      for (String target : links(doc)) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
          continue; // http:, https:, mailto:
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved =
            file.isEmpty()
                ? doc
                : doc.getParent()
                    .resolve(URLDecoder.decode(file, StandardCharsets.UTF_8))
                    .normalize();
        String where = ROOT.relativize(doc) + ": (" + target + ")";
        if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
          broken.add(where + " -> no such file in the repository");
          continue;
        }
        if (anchor != null && !anchor.isEmpty()) {
          Set<String> known = anchors.computeIfAbsent(resolved, DocumentationLinksTest::anchors);
          if (!known.contains(anchor)) {
            broken.add(
                where
                    + " -> no heading with anchor #"
                    + anchor
                    + " in "
                    + ROOT.relativize(resolved));
          }
        }
      }
    }
    assertThat(broken).as("broken links (%d checked)", checked).isEmpty();
    assertThat(checked).as("relative links checked").isGreaterThan(20);
  }

  @Test
  void anchorsAreGitHubHeadingSlugs() {
    assertThat(slug("Wait queues (LIFO-Pri)")).isEqualTo("wait-queues-lifo-pri");
    assertThat(slug("Use it in a WAR")).isEqualTo("use-it-in-a-war");
    assertThat(slug("The `judgeOnFreshSamples` key: 2–3× cuts"))
        .isEqualTo("the-judgeonfreshsamples-key-23-cuts");
  }

  /** Link and image destinations of a Markdown file. */
  private static List<String> links(Path doc) throws IOException {
    Node root = MARKDOWN.parse(Files.readString(doc, StandardCharsets.UTF_8));
    List<String> targets = new ArrayList<>();
    root.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Link link) {
            targets.add(link.getDestination());
            visitChildren(link);
          }

          @Override
          public void visit(Image image) {
            targets.add(image.getDestination());
            visitChildren(image);
          }
        });
    return targets;
  }

  /** The anchors GitHub gives the headings of a Markdown file (none for other files). */
  private static Set<String> anchors(Path file) {
    Set<String> anchors = new HashSet<>();
    if (!file.toString().endsWith(".md") || !Files.isRegularFile(file)) {
      return anchors;
    }
    Node root;
    try {
      root = MARKDOWN.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Map<String, Integer> seen = new HashMap<>();
    root.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Heading heading) {
            StringBuilder text = new StringBuilder();
            heading.accept(
                new AbstractVisitor() {
                  @Override
                  public void visit(Text t) {
                    text.append(t.getLiteral());
                  }

                  @Override
                  public void visit(Code c) {
                    text.append(c.getLiteral());
                  }
                });
            String slug = slug(text.toString());
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
          }
        });
    return anchors;
  }

  /**
   * GitHub's heading anchor: lower case, every character that is not a letter, digit, space,
   * hyphen or underscore dropped, spaces turned into hyphens.
   */
  static String slug(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }
}
