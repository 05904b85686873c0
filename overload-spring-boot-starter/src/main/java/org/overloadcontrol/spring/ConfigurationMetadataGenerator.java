package org.overloadcontrol.spring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.pipeline.KeyDescription;
import org.overloadcontrol.internal.pipeline.KeyReference;

/**
 * Writes Spring Boot's configuration metadata ({@code META-INF/spring-configuration-metadata.json})
 * for every {@code overload.*} property, so that an IDE completes them with their defaults and
 * meanings. Run by the build, never by an application (the class is left out of the jar).
 *
 * <p>Its source is the key tables in the code ({@link KeyReference}, the tables the parser
 * accepts keys by and the configuration reference is generated from) and the starter's own
 * properties ({@link StarterKeyTable}), so the metadata cannot name a key the parser refuses nor
 * give a default the reference does not.
 *
 * <p>Names are written as Spring writes them, kebab-case, but only in the first and the last
 * segment of a key: those are the library's words, which {@link SpringProperties#relaxed} turns
 * back; the segments between them may be names the application chooses and are kept.
 * Placeholders stay as the tables write them ({@code overload.classes.<c>.rank}).
 */
public final class ConfigurationMetadataGenerator {

  /** One property: its key as the library writes it, its default (or null) and meaning. */
  record Property(String key, String name, String defaultValue, String description, boolean bool) {}

  private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)]\\([^)]*\\)");

  private ConfigurationMetadataGenerator() {}

  /** {@code args[0]}: the file to write. */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Files.createDirectories(out.getParent());
    Files.writeString(out, json(properties()), StandardCharsets.UTF_8);
  }

  /** The properties of every key table, then the starter's own. */
  static List<Property> properties() {
    List<Property> properties = new ArrayList<>();
    for (KeyDescription key : KeyReference.keys()) {
      properties.add(property(springName(key.name()), key));
    }
    for (KeyDescription key : StarterKeyTable.KEYS) {
      properties.add(property(key.name(), key));
    }
    return properties;
  }

  /**
   * A default that is one value ({@code `10s`}, {@code 0.9}) is the property's default; a
   * default in words ("none: no queueing", "the container's request threads") goes into the
   * description instead, where the IDE shows it.
   */
  private static Property property(String name, KeyDescription key) {
    String literal = key.literalDefault();
    String shown = key.defaultValue();
    String description = plain(key.meaning());
    if (literal == null && !shown.isEmpty() && !shown.equals("—")) {
      description = description + " (default: " + plain(shown) + ")";
    }
    return new Property(key.name(), name, literal, description, key.type().equals("boolean"));
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
      boolean bool = p.bool();
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
