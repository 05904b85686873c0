package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.overloadcontrol.base.OverloadLog;

/**
 * Tells the filter when its container begins a graceful stop, which the servlet API has no word
 * for. Jetty 12 stops gracefully (a stop timeout, its {@code graceful} module) in two steps:
 * first it calls {@code shutdown()} on every {@code Graceful} component of the server and waits
 * up to the timeout for the requests in progress, then it closes the connections and stops the
 * contexts, whose filters are destroyed only then. A filter that waits for its
 * {@code destroy} keeps handing permits to waiting requests for the whole timeout: they run in
 * the application, and the clients of those still running when the connections close get no
 * answer (issue 33: 7 such in a 5 s stop with 300 waiting), while the waiting ones are answered
 * to closed connections. Registered as a {@code Graceful} component of the web application's
 * context, the filter stops admitting when the stop begins, as it does in Tomcat, whose
 * contexts stop before its connections close.
 *
 * <p>The filter is built against the servlet API only and a web application does not see the
 * container's classes, so the component is a {@link Proxy} of the container's own
 * {@code Graceful} interface, found through the context by reflection. In any other container
 * (no {@code getContextHandler()} on its servlet context) this does nothing and
 * {@code destroy} remains the stop.
 */
final class GracefulStopSignal implements AutoCloseable {

  private static final OverloadLog LOG = OverloadLog.get(GracefulStopSignal.class);
  private static final String GRACEFUL = "org.eclipse.jetty.util.component.Graceful";

  /** Nothing to remove: the container offers no graceful stop we can hear. */
  private static final GracefulStopSignal NONE = new GracefulStopSignal(null, null);

  private final Object container;
  private final Object component;

  private GracefulStopSignal(Object container, Object component) {
    this.container = container;
    this.component = component;
  }

  /**
   * Calls {@code onStop} once when the container of {@code context} begins a graceful stop.
   * Never throws: where the container offers no such signal, the filter's {@code destroy}
   * stops it as before.
   */
  static GracefulStopSignal listen(ServletContext context, Runnable onStop) {
    try {
      Method contextHandler = context.getClass().getMethod("getContextHandler");
      Object handler = contextHandler.invoke(context);
      if (handler == null) {
        return NONE;
      }
      Class<?> graceful = Class.forName(GRACEFUL, false, handler.getClass().getClassLoader());
      Object component =
          Proxy.newProxyInstance(
              graceful.getClassLoader(), new Class<?>[] {graceful}, new Component(onStop));
      handler.getClass().getMethod("addBean", Object.class).invoke(handler, component);
      return new GracefulStopSignal(handler, component);
    } catch (NoSuchMethodException | ClassNotFoundException e) {
      return NONE; // not Jetty, or a Jetty without graceful components
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("overload-control: cannot listen for the container's graceful stop", e);
      return NONE;
    }
  }

  /** Leaves the container's components (at the filter's destroy). */
  @Override
  public void close() {
    if (container == null) {
      return;
    }
    try {
      container.getClass().getMethod("removeBean", Object.class).invoke(container, component);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("overload-control: cannot leave the container's components", e);
    }
  }

  /** The {@code Graceful} component: its {@code shutdown()} is the start of the stop. */
  private static final class Component implements InvocationHandler {
    private final Runnable onStop;
    private final AtomicBoolean stopped = new AtomicBoolean();

    Component(Runnable onStop) {
      this.onStop = onStop;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      switch (method.getName()) {
        case "shutdown":
          if (stopped.compareAndSet(false, true)) {
            onStop.run();
          }
          // Done at once: the waiting requests are answered, the running ones the container
          // waits for itself.
          return CompletableFuture.completedFuture(null);
        case "isShutdown":
          return stopped.get();
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        case "toString":
          return "overload-control graceful stop" + (stopped.get() ? " (stopping)" : "");
        default:
          throw new UnsupportedOperationException(method.getName());
      }
    }
  }
}
