package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;

class AnnotationKeysTest {

  @ResponseTimeTarget("300ms")
  @Degradable(minQuality = 0.5)
  @RequestClass(value = "buyer", rank = 2, kind = RequestKind.TRANSACTION)
  static final class Checkout {}

  @RequestClass(value = "buyer", rank = 3)
  static final class Other {}

  private static void putAll(AnnotationKeys keys, String endpoint, Class<?> type) {
    keys.put(
        endpoint,
        type.getAnnotation(ResponseTimeTarget.class),
        type.getAnnotation(Degradable.class),
        type.getAnnotation(RequestClass.class),
        type.getName());
  }

  @Test
  void writesTheKeysOfEachAnnotation() {
    AnnotationKeys keys = AnnotationKeys.throwing("annotations", "they must agree");
    putAll(keys, "checkout", Checkout.class);
    KeyLayer layer = keys.layer();
    assertThat(layer.values())
        .containsEntry("endpoints.checkout.target", "300ms")
        .containsEntry("degrade.endpoints.checkout.minQuality", "0.5")
        .containsEntry("degrade.endpoints.checkout.mode", "combined")
        .containsEntry("endpoints.checkout.class", "buyer")
        .containsEntry("classes.buyer.rank", "2")
        .containsEntry("classes.buyer.kind", "transaction")
        .containsEntry("classes.buyer.utility", "1.0");
    assertThat(layer.origin("classes.buyer.rank"))
        .isEqualTo("@RequestClass on " + Checkout.class.getName());
  }

  @Test
  void aConflictThrowsOrIsCollectedWithOneMessage() {
    AnnotationKeys throwing = AnnotationKeys.throwing("annotations", "they must agree");
    putAll(throwing, "checkout", Checkout.class);
    assertThatThrownBy(() -> putAll(throwing, "search", Other.class))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("classes.buyer.rank")
        .hasMessageContaining(
            "conflicts with '2' from @RequestClass on "
                + Checkout.class.getName()
                + "; they must agree");

    AnnotationKeys collecting = AnnotationKeys.collecting("annotations", "they must agree");
    putAll(collecting, "checkout", Checkout.class);
    putAll(collecting, "search", Other.class);
    assertThat(collecting.layer().values()).containsEntry("classes.buyer.rank", "2");
    assertThat(collecting.conflicts()).containsOnlyKeys("classes.buyer.rank", "classes.buyer.kind");
    assertThat(collecting.conflicts().get("classes.buyer.rank"))
        .hasMessageContaining(
            "conflicts with '2' from @RequestClass on " + Checkout.class.getName());
  }
}
