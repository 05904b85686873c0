package org.overloadcontrol.cdi;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import org.overloadcontrol.OverloadContext;

/**
 * Makes what the overload filter knows about the current request injectable:
 * {@code @Inject OverloadContext} (its endpoint, class, target, wait and quality; {@code null}
 * when the request is not under overload control) and {@code @Inject @Quality double}. Both are
 * {@code @Dependent}: inject them into a {@code @RequestScoped} bean, which is created once per
 * request and so sees that request's values.
 */
@Dependent
public class OverloadProducers {

  @Produces
  @Dependent
  OverloadContext overloadContext(CurrentRequest current) {
    return current.context().orElse(null);
  }

  @Produces
  @Quality
  @Dependent
  double quality(CurrentRequest current) {
    return current.quality();
  }
}
