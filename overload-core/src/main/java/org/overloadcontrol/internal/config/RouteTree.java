package org.overloadcontrol.internal.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the route of a request in one walk over its path: the routes' templates, as whole
 * segments, form a tree (a literal child per literal segment, one child for a one-segment
 * variable or {@code *}, and the routes that end, or end in {@code **}, at each node), so a
 * request finds each segment's end, compares the segment with the literals of its length, and
 * follows only the branches its segments take, instead of trying template after template. Templates
 * that need a regular expression are tried after the walk, in order.
 *
 * <p>Routes are numbered in match order (most specific first, {@link FrameworkRoutes}); where
 * several match, the lowest number wins, so the walk gives the same answer as trying every
 * template in that order. A branch whose lowest route number is not below the best found so far
 * is not entered.
 */
final class RouteTree {

  private final Node root = new Node();
  private final String[] methods;
  private final PathTemplate[] templates;

  /** The routes matched by a regular expression, in match order. */
  private final int[] expressionRoutes;

  /**
   * @param methods per route, its HTTP method (upper case), or null for any
   * @param templates per route, its template
   */
  RouteTree(String[] methods, PathTemplate[] templates) {
    this.methods = methods.clone();
    this.templates = templates.clone();
    List<Integer> expressions = new ArrayList<>();
    for (int i = 0; i < templates.length; i++) {
      String[] segments = templates[i].segments();
      if (segments == null) {
        expressions.add(i);
        continue;
      }
      Node node = root;
      node.lowest = Math.min(node.lowest, i);
      boolean rest = false;
      for (String segment : segments) {
        if (PathTemplate.isRest(segment)) {
          node.rest = append(node.rest, i);
          rest = true;
          break;
        }
        node = PathTemplate.isOne(segment) ? node.one() : node.literal(segment);
        node.lowest = Math.min(node.lowest, i);
      }
      if (!rest) {
        node.end = append(node.end, i);
      }
    }
    this.expressionRoutes = expressions.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Whether a route of {@code routeMethod} (null: any) takes a request of {@code method}. */
  static boolean accepts(String routeMethod, String method) {
    return routeMethod == null
        || routeMethod.equals(method)
        || (routeMethod.equals("GET") && "HEAD".equals(method));
  }

  /** The number of the route a request takes, or -1. */
  int find(String method, String path) {
    if (path == null) {
      return -1;
    }
    int best = walk(root, method, path, 0, Integer.MAX_VALUE);
    for (int i : expressionRoutes) {
      if (i >= best) {
        break;
      }
      if (accepts(methods[i], method) && templates[i].matches(path)) {
        best = i;
        break;
      }
    }
    return best == Integer.MAX_VALUE ? -1 : best;
  }

  /**
   * The best route below {@code node} for the path from {@code pos}, or {@code best}. Where only
   * one branch can match (a literal child or the variable child) the walk goes on in this call:
   * it recurses only when the path's segment is a literal child's and a variable could take it
   * too.
   */
  private int walk(Node node, String method, String path, int pos, int best) {
    int length = path.length();
    while (true) {
      // A trailing slash is optional; "**" matches nothing or a slash and the rest.
      if (pos == length || (pos == length - 1 && path.charAt(pos) == '/')) {
        best = first(node.end, method, best);
      }
      if (node.rest.length > 0 && (pos == length || path.charAt(pos) == '/')) {
        best = first(node.rest, method, best);
      }
      if (pos >= length || path.charAt(pos) != '/') {
        return best;
      }
      int start = pos + 1;
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = length;
      }
      if (end == start) {
        return best; // an empty segment: no literal is empty and a variable needs a character
      }
      Node literal = node.literalChild(path, start, end - start);
      Node variable = node.variable;
      if (literal != null && literal.lowest < best) {
        if (variable == null) {
          node = literal;
          pos = end;
          continue;
        }
        best = walk(literal, method, path, end, best);
      }
      if (variable == null || variable.lowest >= best) {
        return best;
      }
      node = variable;
      pos = end;
    }
  }

  /** The lowest route of {@code candidates} (ascending) below {@code best} that takes the method. */
  private int first(int[] candidates, String method, int best) {
    for (int i : candidates) {
      if (i >= best) {
        break;
      }
      if (accepts(methods[i], method)) {
        return i;
      }
    }
    return best;
  }

  private static int[] append(int[] a, int value) {
    int[] out = Arrays.copyOf(a, a.length + 1);
    out[a.length] = value;
    return out;
  }

  /** One segment position of the templates. */
  private static final class Node {
    private int literalCount;
    private int[] literalLengths = new int[0];
    private String[] literals = new String[0];
    private Node[] literalChildren = new Node[0];
    private Node variable;

    /** Routes ending here, ascending. */
    private int[] end = new int[0];

    /** Routes ending in "**" here, ascending. */
    private int[] rest = new int[0];

    /** The lowest route number at or below this node. */
    private int lowest = Integer.MAX_VALUE;

    /** The literal child named by the {@code n} characters of {@code path} from {@code start}. */
    Node literalChild(String path, int start, int n) {
      for (int k = 0; k < literalCount; k++) {
        if (literalLengths[k] == n && path.startsWith(literals[k], start)) {
          return literalChildren[k];
        }
      }
      return null;
    }

    Node one() {
      if (variable == null) {
        variable = new Node();
      }
      return variable;
    }

    Node literal(String segment) {
      for (int k = 0; k < literalCount; k++) {
        if (literals[k].equals(segment)) {
          return literalChildren[k];
        }
      }
      Node child = new Node();
      literalLengths = append(literalLengths, segment.length());
      literals = Arrays.copyOf(literals, literalCount + 1);
      literals[literalCount] = segment;
      literalChildren = Arrays.copyOf(literalChildren, literalCount + 1);
      literalChildren[literalCount] = child;
      literalCount++;
      return child;
    }
  }
}
