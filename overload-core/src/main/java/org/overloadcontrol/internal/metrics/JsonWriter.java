package org.overloadcontrol.internal.metrics;

/**
 * A minimal streaming JSON writer for the status document: objects, arrays, strings, numbers
 * and booleans, with commas placed by nesting state. Non-finite numbers become {@code null}
 * (JSON has no NaN or Infinity). Strings escape {@code <}, {@code >} and {@code &} too, so the
 * document is safe to embed in HTML.
 */
final class JsonWriter {

  private final StringBuilder out = new StringBuilder(1024);

  /** Per nesting level: whether the next value needs a comma before it. */
  private boolean[] comma = new boolean[16];

  private int depth;
  private boolean afterName;

  JsonWriter beginObject() {
    value();
    out.append('{');
    push();
    return this;
  }

  JsonWriter endObject() {
    depth--;
    out.append('}');
    return this;
  }

  JsonWriter beginArray() {
    value();
    out.append('[');
    push();
    return this;
  }

  JsonWriter endArray() {
    depth--;
    out.append(']');
    return this;
  }

  JsonWriter name(String name) {
    value();
    string(name);
    out.append(':');
    afterName = true;
    return this;
  }

  JsonWriter value(String s) {
    value();
    if (s == null) {
      out.append("null");
    } else {
      string(s);
    }
    return this;
  }

  JsonWriter value(double d) {
    value();
    if (Double.isFinite(d)) {
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        out.append((long) d);
      } else {
        out.append(d); // Double.toString is a valid JSON number for every finite double
      }
    } else {
      out.append("null");
    }
    return this;
  }

  JsonWriter value(long n) {
    value();
    out.append(n);
    return this;
  }

  JsonWriter value(boolean b) {
    value();
    out.append(b);
    return this;
  }

  JsonWriter field(String name, String v) {
    return name(name).value(v);
  }

  JsonWriter field(String name, double v) {
    return name(name).value(v);
  }

  JsonWriter field(String name, long v) {
    return name(name).value(v);
  }

  JsonWriter field(String name, boolean v) {
    return name(name).value(v);
  }

  private void push() {
    depth++;
    if (depth == comma.length) {
      comma = java.util.Arrays.copyOf(comma, depth * 2);
    }
    comma[depth] = false;
  }

  /** Before any value or name: a comma unless first at this level or right after a name. */
  private void value() {
    if (afterName) {
      afterName = false;
      return;
    }
    if (depth > 0) {
      if (comma[depth]) {
        out.append(',');
      }
      comma[depth] = true;
    }
  }

  private void string(String s) {
    // One escaper for every JSON document the project writes, so they cannot disagree.
    out.append(org.overloadcontrol.internal.engine.JsonText.quote(s));
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
