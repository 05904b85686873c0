package org.overloadcontrol.servlet;

import org.overloadcontrol.engine.JsonText;

/** JSON string quoting for the few small documents the filter writes itself. */
final class Json {

  private Json() {}

  static String string(String s) {
    return JsonText.quote(s);
  }
}
