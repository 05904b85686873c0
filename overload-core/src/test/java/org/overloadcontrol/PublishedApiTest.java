package org.overloadcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The published API stays narrow: at most 40 types, each public and top-level; and the internal
 * public types (public, outside the pipeline, not published) do not grow in number.
 */
class PublishedApiTest {

  /** Today's count; lower it when a type leaves, never raise it. */
  private static final int INTERNAL_PUBLIC_TYPES = 104;

  @Test
  void thePublishedListIsNarrowAndPublic() {
    assertThat(PublishedApi.TYPES).hasSizeLessThanOrEqualTo(40).doesNotHaveDuplicates();
    for (Class<?> type : PublishedApi.TYPES) {
      assertThat(Modifier.isPublic(type.getModifiers())).as(type.getName()).isTrue();
      assertThat(type.getEnclosingClass()).as(type.getName()).isNull();
    }
  }

  @Test
  void theInternalPublicTypesDoNotGrow() {
    List<String> internal =
        PublishedApi.classesOf("org.overloadcontrol").stream()
            .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC))
            .filter(c -> c.isTopLevelClass())
            .filter(c -> PublishedApi.isInternal(c, true))
            .map(JavaClass::getName)
            .sorted()
            .collect(Collectors.toList());
    assertThat(internal).hasSize(INTERNAL_PUBLIC_TYPES);
  }
}
