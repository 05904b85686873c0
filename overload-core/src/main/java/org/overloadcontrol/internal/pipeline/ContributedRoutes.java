package org.overloadcontrol.internal.pipeline;

import java.util.Objects;
import java.util.Set;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.FrameworkRoutes;

/**
 * The routes a framework module (Jakarta REST, Spring Boot) left for the filter in the servlet
 * context, as the filter reads them at its start: its handler methods become endpoints, and the
 * keys they carry become layers ({@link ConfigLayers#annotations(ContributedRoutes)}, {@link
 * ConfigLayers#keys(ContributedRoutes)}).
 */
public final class ContributedRoutes {

  /** The servlet-context attribute in which a framework module leaves its routes. */
  public static final String ATTRIBUTE = FrameworkRoutes.ATTRIBUTE;

  /** No framework left routes. */
  public static final ContributedRoutes NONE = new ContributedRoutes(FrameworkRoutes.NONE);

  private final FrameworkRoutes routes;

  private ContributedRoutes(FrameworkRoutes routes) {
    this.routes = Objects.requireNonNull(routes, "routes");
  }

  /** Routes a framework module built ({@link HandlerRoutes#contributed()}). */
  static ContributedRoutes of(FrameworkRoutes routes) {
    return new ContributedRoutes(routes);
  }

  /**
   * What a framework module sets the servlet-context attribute {@link #ATTRIBUTE} to, for the
   * filter to read with {@link #fromAttribute}.
   */
  public Object attributeValue() {
    return routes;
  }

  /**
   * The routes in the servlet-context attribute {@link #ATTRIBUTE} ({@code supplied}), said on
   * {@code log}; {@link #NONE} when it is not set.
   *
   * @throws OverloadConfigException when it holds something else (the filter's jar loaded twice)
   */
  public static ContributedRoutes fromAttribute(Object supplied, OverloadLog log) {
    if (supplied == null) {
      return NONE;
    }
    if (supplied instanceof FrameworkRoutes r) {
      log.info(
          "overload-control: {} routes from {} to {} endpoints",
          r.size(),
          r.framework(),
          r.endpoints().size());
      return new ContributedRoutes(r);
    }
    throw OverloadConfigException.of(
        ATTRIBUTE,
        supplied.getClass().getName(),
        "servlet-context attribute",
        "is not a "
            + FrameworkRoutes.class.getName()
            + " visible to the filter (is the filter's jar in the web application twice?)");
  }

  /**
   * The routes the servlet-context attribute {@link #ATTRIBUTE} holds ({@code supplied}), for a
   * framework module that reads its own properties again; routes of {@code framework} without a
   * handler method when it holds none.
   */
  public static ContributedRoutes held(Object supplied, String framework) {
    return new ContributedRoutes(
        supplied instanceof FrameworkRoutes r ? r : FrameworkRoutes.builder(framework).build());
  }

  /**
   * The same routes with the framework's properties read again ({@code layer}): on a reload the
   * routes, which come from code, stay as they are, and the properties may have changed.
   */
  public ContributedRoutes withProperties(KeyLayer layer) {
    return new ContributedRoutes(routes.withProperties(layer.source()));
  }

  /** The endpoints the routes name. */
  public Set<String> endpoints() {
    return routes.endpoints();
  }

  FrameworkRoutes routes() {
    return routes;
  }
}
