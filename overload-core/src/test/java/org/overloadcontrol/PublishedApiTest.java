package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The published API stays narrow: at most 40 types, each public and top-level; and every other
 * public core type is in a package under {@code org.overloadcontrol.internal}, so a type made
 * public outside it fails here until it is listed in {@link PublishedApi#TYPES} (a deliberate
 * widening of the API) or moves under {@code internal}.
 */
class PublishedApiTest {

  /** The public top-level types of overload-core's production classes. */
  private static List<JavaClass> publicCoreTypes() {
    return PublishedApi.classesOf("org.overloadcontrol").stream()
        .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC))
        .filter(JavaClass::isTopLevelClass)
        .collect(Collectors.toList());
  }

  @Test
  void thePublishedListIsNarrowAndPublic() {
    assertThat(PublishedApi.TYPES).hasSizeLessThanOrEqualTo(40).doesNotHaveDuplicates();
    for (Class<?> type : PublishedApi.TYPES) {
      assertThat(Modifier.isPublic(type.getModifiers())).as(type.getName()).isTrue();
      assertThat(type.getEnclosingClass()).as(type.getName()).isNull();
      assertThat(type.getPackageName())
          .as(type.getName() + " is published, so not in an internal package")
          .doesNotStartWith(PublishedApi.INTERNAL + ".")
          .isNotEqualTo(PublishedApi.INTERNAL);
    }
  }

  @Test
  void everyPublicTypeOutsideInternalIsPublished() {
    Set<String> published =
        PublishedApi.TYPES.stream().map(Class::getName).collect(Collectors.toSet());
    List<String> unlisted =
        publicCoreTypes().stream()
            .filter(c -> !PublishedApi.inInternalPackage(c))
            .map(JavaClass::getName)
            .filter(name -> !published.contains(name))
            .sorted()
            .collect(Collectors.toList());
    assertThat(unlisted)
        .as(
            "public core types outside org.overloadcontrol.internal that PublishedApi does not list")
        .isEmpty();
  }

  @Test
  void thePublishedTypesAreAtMostFortyOfTheCore() {
    List<JavaClass> types = publicCoreTypes();
    long outside = types.stream().filter(c -> !PublishedApi.inInternalPackage(c)).count();
    assertThat(outside)
        .as("public core types outside org.overloadcontrol.internal, each a listed one")
        .isLessThanOrEqualTo(40)
        .isEqualTo(PublishedApi.TYPES.size());
  }
}
