package org.overloadcontrol.rest;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.ConfigLayers;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.internal.pipeline.HandlerRoutes;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.Settings;
import org.overloadcontrol.internal.pipeline.YamlConfigLoader;

/**
 * Overload control for a Jakarta REST application without servlets (Jersey on its JDK HTTP
 * server, Grizzly or Netty; any implementation): the filter-only mode. Register the started
 * feature with the application; as the application starts, the implementation shows it each
 * resource method once ({@link DynamicFeature}) and it binds to that method a filter that knows
 * the method's endpoint, so no request is matched twice. Each request then goes through the
 * engine's one request life cycle ({@code RequestPipeline}): tagged with its endpoint and class
 * (Welsh &amp; Culler 2003 §3), admitted, queued (LIFO-Pri, Singhmar et al. 2004) or refused
 * with 503 and {@code Retry-After}, and measured until its entity is written.
 *
 * <p>Endpoints, annotations and configuration are those of the servlet mode: a resource method
 * is the endpoint {@code SimpleClassName#method} or its {@code @Endpoint}; its annotations and
 * its class's are the lowest configuration layer (read from the resource classes given to the
 * builder), then the builder's keys, then the YAML file, then the operator's file
 * ({@value OperatorConfigFile#PROPERTY}).
 *
 * <p>What differs from the servlet filter: a Jakarta REST filter cannot be suspended, so a
 * request that has to wait for a permit waits on its worker thread, bounded by its class's
 * longest wait ({@code queue.nonAsync=block}, the default; {@code reject} refuses it instead),
 * a client that leaves while waiting is not noticed before its wait ends, and bandwidth delays
 * are refused as a full standby. The peer address is not known to a filter, so rules by client
 * address see only what a trusted proxy's header says.
 *
 * <p>Close the feature when the application stops: it stops the engine's timer thread.
 */
public final class OverloadRestFeature implements DynamicFeature, AutoCloseable {

  /** Ahead of the application's authentication filters: overload is decided first. */
  static final int PRIORITY = Priorities.AUTHENTICATION - 100;

  private static final OverloadLog LOG = OverloadLog.get(OverloadRestFeature.class);

  private static final String SETTINGS_ORIGIN = "OverloadRestFeature settings";

  private final OverloadRuntime runtime;

  private OverloadRestFeature(OverloadRuntime runtime) {
    this.runtime = runtime;
  }

  /** A builder; {@link Builder#start} parses the configuration and starts the engine. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void configure(ResourceInfo resource, FeatureContext context) {
    Method method = resource.getResourceMethod();
    Class<?> type = resource.getResourceClass();
    if (method == null || type == null) {
      return;
    }
    context.register(
        new RestGate(runtime.pipeline(), HandlerRoutes.endpointName(type, method)), PRIORITY);
  }

  /** The running engine and its parts, for tests in this package. */
  OverloadRuntime runtime() {
    return runtime;
  }

  /** Stops the engine: waiting requests are refused, and the timer thread ends. */
  @Override
  public void close() {
    runtime.close();
  }

  /** Collects the resource classes and the configuration; not thread-safe. */
  public static final class Builder {
    private final List<Class<?>> resources = new ArrayList<>();
    private final Map<String, String> keys = new LinkedHashMap<>();
    private Path configFile;
    private String configResource;

    private Builder() {}

    /** Resource classes whose annotations configure their methods' endpoints. */
    public Builder resources(Class<?>... types) {
      resources.addAll(List.of(types));
      return this;
    }

    /** The classes of {@code application} ({@code getClasses()}; the others are skipped). */
    public Builder application(Application application) {
      resources.addAll(application.getClasses());
      return this;
    }

    /** One configuration key, above the annotations and below the YAML file. */
    public Builder put(String key, String value) {
      keys.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** A YAML file of the filter's keys. */
    public Builder configFile(Path file) {
      this.configFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /** A YAML file on the class path (e.g. {@code overload.yaml} in the application's jar). */
    public Builder configResource(String name) {
      this.configResource = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Parses and validates the configuration and starts the engine.
     *
     * @throws OverloadConfigException naming the key, value and origin of the first problem
     */
    public OverloadRestFeature start() {
      try {
        ContributedRoutes routes = RestRoutes.of("", resources);
        Settings settings =
            ConfigLayers.builder()
                .annotations(routes)
                .keys(KeyLayer.of(SETTINGS_ORIGIN, keys))
                .file(
                    configFile == null
                        ? null
                        : YamlConfigLoader.loadFile(
                            configFile, "configFile", configFile.toString(), SETTINGS_ORIGIN))
                .file(
                    configResource == null
                        ? null
                        : YamlConfigLoader.loadResource(
                            resourceLoader(), configResource, "configResource", SETTINGS_ORIGIN))
                .operatorFile()
                .noRejectionHandler(
                    "names a servlet RejectionHandler, which cannot answer Jakarta REST requests")
                .knownEndpoints(routes.endpoints())
                .read();
        OverloadRuntime runtime =
            OverloadRuntime.builder(settings).scheduler(null, "overload-control-rest").start();
        LOG.info(
            "overload-control: Jakarta REST feature started ({} classes, {} endpoints{})",
            settings.classCount(),
            routes.endpoints().size(),
            settings.enabled() ? "" : ", disabled");
        return new OverloadRestFeature(runtime);
      } catch (RuntimeException e) {
        LOG.error("{}", e.getMessage());
        throw e;
      }
    }

    /** Where {@code configResource} is looked up: the thread's context loader, else ours. */
    private static ClassLoader resourceLoader() {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      return loader != null ? loader : OverloadRestFeature.class.getClassLoader();
    }
  }
}
