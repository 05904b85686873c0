package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaTypeVariable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A published type names no internal type where a user sees it: no public or protected member of
 * a type in {@link PublishedApi#TYPES} (or of its public or protected nested types) takes,
 * returns, holds or throws a type under {@code org.overloadcontrol.internal}, generic arguments
 * and bounds included, and none extends or implements one. Otherwise the internal type would be
 * API in all but name.
 */
class PublishedSignaturesTest {

  /**
   * The leaks left open on purpose, each with the reason; {@code "Type.member -> internal type"}
   * as {@link #leaks} spells them. The list may only shrink.
   */
  private static final Map<String, String> ALLOWED = Map.of();

  @Test
  void publishedSignaturesNameNoInternalType() {
    assertThat(leaks())
        .as("internal types named by published signatures (publish, reshape or move them)")
        .containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
  }

  /** Every internal type a published signature names, as "Type.member -> internal type". */
  static Set<String> leaks() {
    Set<String> published =
        PublishedApi.TYPES.stream().map(Class::getName).collect(Collectors.toSet());
    Set<String> leaks = new TreeSet<>();
    for (JavaClass c : PublishedApi.classesOf("org.overloadcontrol")) {
      if (!published.contains(topLevel(c.getName())) || !visible(c)) {
        continue;
      }
      String owner = c.getName();
      List<JavaType> supertypes = new ArrayList<>(c.getInterfaces());
      c.getSuperclass().ifPresent(supertypes::add);
      supertypes.addAll(c.getTypeParameters());
      report(leaks, owner + " (supertype or type parameter)", supertypes);
      for (JavaField f : c.getFields()) {
        if (visible(f)) {
          report(leaks, owner + "." + f.getName(), List.of(f.getType()));
        }
      }
      for (JavaCodeUnit u : c.getCodeUnits()) {
        if (!visible(u) || u.getModifiers().contains(JavaModifier.SYNTHETIC)) {
          continue;
        }
        List<JavaType> types = new ArrayList<>(u.getParameterTypes());
        types.add(u.getReturnType());
        types.addAll(u.getTypeParameters());
        u.getThrowsClause().getTypes().forEach(types::add);
        report(leaks, owner + "." + u.getName(), types);
      }
    }
    return leaks;
  }

  private static void report(Set<String> leaks, String where, List<? extends JavaType> types) {
    for (JavaType t : types) {
      for (JavaClass raw : involved(t)) {
        if (PublishedApi.inInternalPackage(raw)) {
          leaks.add(where + " -> " + raw.getName());
        }
      }
    }
  }

  /** The raw types a type names: itself, its generic arguments, a variable's bounds. */
  private static Set<JavaClass> involved(JavaType t) {
    if (t instanceof JavaTypeVariable<?> v) {
      Set<JavaClass> all = new java.util.HashSet<>();
      v.getUpperBounds().forEach(b -> all.addAll(b.getAllInvolvedRawTypes()));
      return all;
    }
    return t.getAllInvolvedRawTypes();
  }

  private static boolean visible(JavaClass c) {
    if (c.isTopLevelClass()) {
      return c.getModifiers().contains(JavaModifier.PUBLIC);
    }
    return (c.getModifiers().contains(JavaModifier.PUBLIC)
            || c.getModifiers().contains(JavaModifier.PROTECTED))
        && c.getEnclosingClass().map(PublishedSignaturesTest::visible).orElse(true);
  }

  private static boolean visible(JavaMember m) {
    return m.getModifiers().contains(JavaModifier.PUBLIC)
        || m.getModifiers().contains(JavaModifier.PROTECTED);
  }

  private static String topLevel(String name) {
    int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }
}
