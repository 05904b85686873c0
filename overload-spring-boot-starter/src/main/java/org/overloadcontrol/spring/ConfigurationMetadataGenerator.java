package org.overloadcontrol.spring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes Spring Boot's configuration metadata ({@code META-INF/spring-configuration-metadata.json})
 * for every {@code overload.*} property, so that an IDE completes them with their defaults and
 * meanings. Run by the build, never by an application (the class is left out of the jar).
 *
 * <p>Its source is the key tables of the documentation (README's and the feature pages'), the
 * same tables {@code DocumentedKeysTest} holds to the configuration parser both ways: every key
 * a table lists is one the parser accepts, and every key form the parser accepts is in a table.
 * The tables are the one place that gives each key its default and meaning, so the metadata is
 * generated from them rather than from a second list. A table headed {@code key} lists keys,
 * one headed {@code parameter} controller parameters ({@code controller.<name>}), and one headed
 * {@code property} the starter's own Spring properties, written in full.
 *
 * <p>Names are written as Spring writes them, kebab-case, but only in the first and the last
 * segment of a key: those are the library's words, which {@link SpringProperties#relaxed} turns
 * back; the segments between them may be names the application chooses and are kept.
 * Placeholders stay as the tables write them ({@code overload.classes.<c>.rank}).
 */
public final class ConfigurationMetadataGenerator {

  /** A document with key tables, and the prefix its keys leave out. */
  record Document(String path, String prefix) {}

  /** The documents, relative to the project's root (as in {@code DocumentedKeysTest}). */
  static final List<Document> DOCUMENTS =
      List.of(
          new Document("README.md", ""),
          new Document("docs/bandwidth.md", ""),
          new Document("docs/degradation.md", ""),
          new Document("docs/virtual-queue.md", "virtualQueue."),
          new Document("docs/observability.md", ""),
          new Document("docs/frameworks.md", ""));

  /** One property: its key as the library writes it, its default (or null) and meaning. */
  record Property(String key, String name, String defaultValue, String description) {}

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)]\\([^)]*\\)");

  private ConfigurationMetadataGenerator() {}

  /** {@code args[0]}: the project's root; {@code args[1]}: the file to write. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]);
    Path out = Path.of(args[1]);
    List<Property> properties = new ArrayList<>();
    for (Document d : DOCUMENTS) {
      properties.addAll(properties(Files.readAllLines(root.resolve(d.path())), d.prefix()));
    }
    Files.createDirectories(out.getParent());
    Files.writeString(out, json(properties), StandardCharsets.UTF_8);
  }

  /** The properties of the key, parameter and property tables of one document's lines. */
  static List<Property> properties(List<String> lines, String prefix) {
    Map<String, Property> byName = new LinkedHashMap<>();
    String table = null;
    for (String line : lines) {
      if (!line.startsWith("|")) {
        table = null;
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|", -1); // an escaped pipe is no border
      String first = cells[1].trim();
      if (table == null) {
        table =
            switch (first) {
              case "key", "parameter", "property" -> first;
              default -> "other";
            };
        continue;
      }
      if (table.equals("other") || first.startsWith("---") || cells.length < 4) {
        continue;
      }
      List<String> keys = keys(first);
      String defaults = cells[2].trim();
      String meaning = plain(cells[cells.length - 2].trim());
      String[] parts = defaults.split(" / ");
      for (int i = 0; i < keys.size(); i++) {
        String shown = parts.length == keysInCell(first) ? parts[i % parts.length] : defaults;
        for (String key : alternatives(keys.get(i))) {
          String full =
              switch (table) {
                case "parameter" -> "controller." + key;
                case "property" -> key.substring(SpringProperties.PREFIX.length());
                default -> prefix + key;
              };
          String name =
              table.equals("property") ? SpringProperties.PREFIX + full : springName(full);
          byName.putIfAbsent(name, property(full, name, shown.trim(), meaning));
        }
      }
    }
    return new ArrayList<>(byName.values());
  }

  /** The keys of a first cell: {@code `a.b` / `.c`} is {@code a.b} and {@code a.c}. */
  private static List<String> keys(String cell) {
    List<String> keys = new ArrayList<>();
    String base = null;
    Matcher m = CODE.matcher(cell);
    while (m.find()) {
      String code = m.group(1);
      if (code.startsWith(".") && base != null) {
        keys.add(base.substring(0, base.lastIndexOf('.')) + code);
      } else {
        base = code;
        keys.add(code);
      }
    }
    return keys;
  }

  private static int keysInCell(String cell) {
    return keys(cell).size();
  }

  /** {@code degrade.(step\|period)}, as a table writes it, is two keys. */
  static List<String> alternatives(String key) {
    String plain = key.replace("\\|", "|");
    Matcher group = Pattern.compile("\\(([^()]*)\\)").matcher(plain);
    if (!group.find()) {
      return List.of(plain);
    }
    List<String> keys = new ArrayList<>();
    for (String choice : group.group(1).split("\\|")) {
      keys.addAll(
          alternatives(plain.substring(0, group.start()) + choice + plain.substring(group.end())));
    }
    return keys;
  }

  /**
   * A default that is one value ({@code `10s`}, {@code 0.9}) is the property's default; a
   * default in words ("none: no queueing", "the container's request threads") goes into the
   * description instead, where the IDE shows it.
   */
  private static Property property(String key, String name, String shown, String meaning) {
    String literal = literal(shown);
    String description = meaning;
    if (literal == null && !shown.isEmpty() && !shown.equals("—")) {
      description = meaning + " (default: " + plain(shown) + ")";
    }
    return new Property(key, name, literal, description);
  }

  /**
   * The value a default cell gives, or null when it gives words: one code span or one bare
   * token ({@code `10s`}, {@code 0.9}, {@code 1s}), but not a reference to another key
   * ({@code `maxLimit`}, {@code `endpoints.<e>.target`}) nor "none" or "required".
   */
  static String literal(String shown) {
    Matcher code = Pattern.compile("^`([^`]*)`$").matcher(shown);
    String value;
    if (code.matches()) {
      value = code.group(1);
    } else if (shown.matches("[-−A-Za-z0-9.,%_]+")) {
      value = shown.replace("−", "-");
      if (value.matches("-?[0-9][0-9,]*(\\.[0-9]+)?")) {
        value = value.replace(",", "");
      }
    } else {
      return null;
    }
    if (value.contains("<")
        || value.matches("[a-z]+[A-Z][A-Za-z]*")
        || value.equals("none")
        || value.equals("required")
        || value.equals("unlimited")) {
      return null;
    }
    return value;
  }

  /** A table cell as text: code spans, emphasis and links reduced to their words. */
  static String plain(String cell) {
    String s = LINK.matcher(cell).replaceAll("$1");
    s = s.replace("\\|", "|").replace("`", "").replace("**", "");
    return s.trim();
  }

  /**
   * Spring's form of a library key: its first and last segment in kebab-case (the inverse of
   * {@link SpringProperties#relaxed}), the segments between them as written.
   */
  static String springName(String key) {
    int first = key.indexOf('.');
    if (first < 0) {
      return SpringProperties.PREFIX + kebab(key);
    }
    int last = key.lastIndexOf('.');
    return SpringProperties.PREFIX
        + kebab(key.substring(0, first))
        + key.substring(first, last + 1)
        + kebab(key.substring(last + 1));
  }

  private static String kebab(String segment) {
    if (segment.startsWith("<") || segment.equals("NAME")) {
      return segment; // a placeholder for a name the application chooses
    }
    StringBuilder b = new StringBuilder(segment.length() + 4);
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        b.append('-').append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static String json(List<Property> properties) {
    StringBuilder b = new StringBuilder();
    b.append("{\n  \"groups\": [\n    {\n      \"name\": \"overload\",\n")
        .append("      \"description\": ")
        .append(
            quote(
                "overload-control: admission control, wait queues, degradation,"
                    + " bandwidth shares and the virtual queue (the filter's configuration keys)."))
        .append("\n    }\n  ],\n  \"properties\": [\n");
    for (int i = 0; i < properties.size(); i++) {
      Property p = properties.get(i);
      boolean bool = "true".equals(p.defaultValue()) || "false".equals(p.defaultValue());
      b.append("    {\n      \"name\": ").append(quote(p.name())).append(",\n");
      b.append("      \"type\": ")
          .append(quote(bool ? "java.lang.Boolean" : "java.lang.String"))
          .append(",\n");
      if (p.defaultValue() != null) {
        b.append("      \"defaultValue\": ")
            .append(bool ? p.defaultValue() : quote(p.defaultValue()))
            .append(",\n");
      }
      b.append("      \"description\": ").append(quote(p.description())).append("\n    }");
      b.append(i + 1 < properties.size() ? ",\n" : "\n");
    }
    return b.append("  ]\n}\n").toString();
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
