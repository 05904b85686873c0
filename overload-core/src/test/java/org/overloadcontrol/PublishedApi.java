package org.overloadcontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.cluster.CapacityShare;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.cluster.ClusterView;
import org.overloadcontrol.cluster.CoordinatorFactory;
import org.overloadcontrol.cluster.NodeReport;
import org.overloadcontrol.cluster.TokenClaim;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.degrade.LoggingQualityListener;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.degrade.QualityRound;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.LimiterContext;
import org.overloadcontrol.limiter.LimiterProvider;
import org.overloadcontrol.limiter.Permit;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.overloadcontrol.metrics.MetricsSettings;
import org.overloadcontrol.metrics.Scrape;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.QueueListener;

/**
 * The published API of overload-core: the core types an application, or a module that binds a
 * library to the core (metrics, cluster), may use. Every other public core type lives in a
 * package under {@code org.overloadcontrol.internal}, public only because Java has no visibility
 * between "package" and "everyone": no compatibility promise, for the project's own modules.
 * The container adapters (the filter, the Jetty handler, Jakarta REST and CDI, the Spring
 * starter) use the published types and the adapter SPI, {@code
 * org.overloadcontrol.internal.pipeline}.
 *
 * <p>Why a rule and not a {@code module-info}: the core requires Commons Math 3.6.1 (optional, for
 * {@code virtualQueue.capacity: auto}), whose jar has neither a {@code module-info} nor an {@code
 * Automatic-Module-Name}, so a module descriptor would have to require it by its file-name-derived
 * name, which javac warns against publishing ({@code requires-automatic}); and a WAR or a Spring
 * Boot jar loads the library from the class path, where no module descriptor is enforced. So, as
 * Jetty and Micrometer do on the class path, the internal types are marked by their packages'
 * name, and each module checks its own classes against this list with {@link #check}, in its
 * tests.
 *
 * <p>A nested type is published with its enclosing type ({@code NodeReport.Builder}, {@code
 * Scheduler.Cancellable}).
 */
public final class PublishedApi {

  /** The published core types, each top-level; see the class comment. */
  public static final List<Class<?>> TYPES =
      List.of(
          // what a request's code reads
          OverloadContext.class,
          QualityLevel.class,
          Rejection.class,
          RejectionReason.class,
          // what code and management views read of an endpoint's load
          EndpointSnapshot.class,
          // how an application marks its endpoints
          Degradable.class,
          Endpoint.class,
          RequestClass.class,
          ResponseTimeTarget.class,
          RequestKind.class,
          // the admission SPI
          Limiter.class,
          LimiterContext.class,
          LimiterProvider.class,
          Permit.class,
          // the listeners an application implements, their defaults and the rounds they hear
          AdmissionListener.class,
          ControllerRound.class,
          LimitRound.class,
          QueueListener.class,
          LoggingQueueListener.class,
          QualityListener.class,
          LoggingQualityListener.class,
          QualityRound.class,
          // the clock and timer the entry points take, for tests and embedding
          Ticker.class,
          Scheduler.class,
          // the metrics SPI the metrics modules implement
          MetricsBinding.class,
          BindingContext.class,
          MetricsSettings.class,
          MetricsRecorder.class,
          MetricId.class,
          Scrape.class,
          // the cluster SPI the Hazelcast module implements
          CoordinatorFactory.class,
          ClusterCoordinator.class,
          ClusterSettings.class,
          ClusterView.class,
          NodeReport.class,
          CapacityShare.class,
          TokenClaim.class,
          // what every module and an application's start-up see
          OverloadConfigException.class,
          OverloadLog.class,
          // what a reload of a running filter or handler did
          ReloadResult.class);

  /** The packages of the internal core types, each under this one. */
  public static final String INTERNAL = "org.overloadcontrol.internal";

  /** The adapter SPI: the container adapters may use every type in it and its subpackages. */
  public static final String PIPELINE = INTERNAL + ".pipeline";

  /** The packages of the modules built on the core; the rest of org.overloadcontrol is core. */
  private static final List<String> MODULES =
      List.of(
          "org.overloadcontrol.servlet",
          "org.overloadcontrol.jetty",
          "org.overloadcontrol.rest",
          "org.overloadcontrol.cdi",
          "org.overloadcontrol.spring",
          "org.overloadcontrol.metrics.dropwizard",
          "org.overloadcontrol.metrics.micrometer",
          "org.overloadcontrol.metrics.prometheus",
          "org.overloadcontrol.cluster.hazelcast");

  private PublishedApi() {}

  /** The production classes of the given packages (and their subpackages) on the class path. */
  public static JavaClasses classesOf(String... packages) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages(packages);
  }

  /**
   * Fails when a class of the adapter's package {@code modulePackage} uses a core type that is
   * neither in the pipeline nor published, or when {@code stillReached} names a type it no
   * longer reaches: that list holds the internal types the adapter still reaches until they
   * move behind the pipeline, and may only shrink.
   */
  public static void checkAdapter(String modulePackage, Set<String> stillReached) {
    check(classesOf(modulePackage), modulePackage, true, stillReached);
  }

  /** Fails when a class of the binding's package {@code modulePackage} uses an unpublished type. */
  public static void checkBinding(String modulePackage) {
    check(classesOf(modulePackage), modulePackage, false, Set.of());
  }

  private static void check(
      JavaClasses classes, String modulePackage, boolean adapter, Set<String> stillReached) {
    DescribedPredicate<JavaClass> forbidden =
        DescribedPredicate.describe(
            adapter
                ? "internal core types (neither pipeline nor published)"
                : "unpublished core types",
            c -> isInternal(c, adapter) && !stillReached.contains(topLevel(c)));
    noClasses()
        .that()
        .resideInAPackage(modulePackage + "..")
        .should()
        .dependOnClassesThat(forbidden)
        .check(classes);
    assertThat(reachedInternals(classes, modulePackage, adapter))
        .as("internal core types " + modulePackage + " still reaches (shrink the list)")
        .containsExactlyInAnyOrderElementsOf(stillReached);
  }

  private static Set<String> reachedInternals(
      JavaClasses classes, String modulePackage, boolean adapter) {
    Set<String> reached = new TreeSet<>();
    for (JavaClass c : classes) {
      if (c.getPackageName().startsWith(modulePackage)) {
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          if (isInternal(d.getTargetClass(), adapter)) {
            reached.add(topLevel(d.getTargetClass()));
          }
        }
      }
    }
    return reached;
  }

  /** Whether {@code c} is a core type a module may not use. */
  public static boolean isInternal(JavaClass c, boolean adapter) {
    String type = topLevel(c);
    String pkg = type.substring(0, Math.max(0, type.lastIndexOf('.')));
    if (!pkg.equals("org.overloadcontrol") && !pkg.startsWith("org.overloadcontrol.")) {
      return false;
    }
    if (MODULES.stream().anyMatch(m -> pkg.equals(m) || pkg.startsWith(m + "."))) {
      return false;
    }
    if (adapter && (pkg.equals(PIPELINE) || pkg.startsWith(PIPELINE + "."))) {
      return false;
    }
    return TYPES.stream().noneMatch(t -> t.getName().equals(type));
  }

  /** Whether {@code c} is in {@code org.overloadcontrol.internal} or one of its subpackages. */
  public static boolean inInternalPackage(JavaClass c) {
    String pkg = c.getPackageName();
    return pkg.equals(INTERNAL) || pkg.startsWith(INTERNAL + ".");
  }

  /** The top-level type's name; by name, as a class outside the import knows no enclosing one. */
  private static String topLevel(JavaClass c) {
    String name = c.getBaseComponentType().getName();
    int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }
}
