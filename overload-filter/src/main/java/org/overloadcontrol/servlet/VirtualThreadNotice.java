package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Says how the filter bounds requests that run on virtual threads: at start when the container
 * said so ({@link VirtualThreads#atStart}), else once on the first request that arrives on a
 * virtual thread (Tomcat without JMX, as Spring Boot runs it with {@code
 * spring.threads.virtual.enabled}). On virtual threads no thread pool holds requests back, so
 * the concurrency limit is the only bound; the operator should know what its ceiling is.
 */
final class VirtualThreadNotice {

  private final ServletContext context;
  private final String filterName;
  private final int maxLimit;
  private final boolean maxLimitFromThreads;
  private final AtomicBoolean said = new AtomicBoolean();

  /** Read without a fence: a few early requests may each check, one of them speaks. */
  private boolean checked;

  /**
   * @param knownAtStart whether the start line already said it
   * @param maxLimit the default group's {@code admission.maxLimit}
   * @param maxLimitFromThreads whether that came from the container's thread count
   */
  VirtualThreadNotice(
      ServletContext context,
      String filterName,
      boolean knownAtStart,
      int maxLimit,
      boolean maxLimitFromThreads) {
    this.context = context;
    this.filterName = filterName;
    this.maxLimit = maxLimit;
    this.maxLimitFromThreads = maxLimitFromThreads;
    this.checked = knownAtStart;
  }

  /** The words the start line adds when the container said it runs requests on virtual threads. */
  static String atStart(String how, int maxLimit) {
    return "; requests run on virtual threads ("
        + how
        + "): no thread pool bounds them, the concurrency limit's ceiling is admission.maxLimit ("
        + maxLimit
        + ")";
  }

  /** A request arrived on the current thread. */
  void onRequest() {
    if (checked) {
      return;
    }
    checked = true;
    if (VirtualThreads.isVirtual(Thread.currentThread())
        && !said.get()
        && said.compareAndSet(false, true)) {
      ContainerLog.warn(context, message());
    }
  }

  String message() {
    return "overload-control: filter '"
        + filterName
        + "': requests run on virtual threads, which the container did not say at start;"
        + " no thread pool bounds them, the concurrency limit's ceiling is admission.maxLimit ("
        + maxLimit
        + (maxLimitFromThreads
            ? ", taken from the container's request threads, which no longer bound requests:"
                + " set admission.maxLimit to what the application's resources can serve)"
            : ")");
  }
}
