package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RouteTreeTest {

  /**
   * "Aa" and "BB" share a String hash; "cart", "coat" and "cant" share a length and first and
   * last characters (siblings that the walk's length check does not tell apart).
   */
  private static final String[] LITERALS = {
    "orders", "cart", "coat", "cant", "Aa", "BB", "files", "x"
  };

  private static final String[] TEMPLATE_SEGMENTS = {
    "orders",
    "cart",
    "coat",
    "cant",
    "Aa",
    "BB",
    "files",
    "x",
    "{id}",
    "*",
    "**",
    "{*rest}",
    "{n: [0-9]+}",
    "a{b}"
  };
  private static final String[] METHODS = {"GET", "POST", null};

  /**
   * The walk answers what trying every template in match order answers, for random route sets
   * (literals with colliding hashes, variables, "*", "**", regular expressions) and random
   * paths (trailing slashes, empty segments, HEAD).
   */
  @Test
  void theWalkFindsTheRouteThatTryingEveryTemplateInOrderFinds() {
    Random random = new Random(20);
    for (int set = 0; set < 300; set++) {
      int count = 1 + random.nextInt(12);
      String[] methods = new String[count];
      PathTemplate[] templates = new PathTemplate[count];
      for (int i = 0; i < count; i++) {
        methods[i] = METHODS[random.nextInt(METHODS.length)];
        templates[i] = PathTemplate.compile(template(random));
      }
      RouteTree tree = new RouteTree(methods, templates);
      for (int p = 0; p < 60; p++) {
        String path = path(random);
        String method = new String[] {"GET", "POST", "HEAD", "DELETE"}[random.nextInt(4)];
        int expected = -1;
        for (int i = 0; i < count; i++) {
          if (RouteTree.accepts(methods[i], method) && templates[i].matches(path)) {
            expected = i;
            break;
          }
        }
        assertThat(tree.find(method, path))
            .as("%s %s against %s", method, path, List.of(templates))
            .isEqualTo(expected);
      }
    }
  }

  private static String template(Random random) {
    int n = random.nextInt(4);
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < n; i++) {
      String s = TEMPLATE_SEGMENTS[random.nextInt(TEMPLATE_SEGMENTS.length)];
      if ((s.equals("**") || s.startsWith("{*")) && i < n - 1) {
        s = "x";
      }
      t.append('/').append(s);
    }
    if (random.nextInt(5) == 0) {
      t.append('/');
    }
    return t.length() == 0 ? "/" : t.toString();
  }

  private static String path(Random random) {
    int n = random.nextInt(5);
    List<String> segments = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = random.nextInt(LITERALS.length + 3);
      segments.add(
          k < LITERALS.length
              ? LITERALS[k]
              : k == LITERALS.length ? "42" : k == LITERALS.length + 1 ? "" : "abc");
    }
    String path = "/" + String.join("/", segments);
    return random.nextInt(5) == 0 ? path + "/" : path;
  }
}
