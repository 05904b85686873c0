package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.overloadcontrol.base.OverloadLog;

/**
 * Tells the filter when its container begins to stop, which the servlet API has no word for:
 * both containers can wait a while for the requests in progress before they stop the
 * application, and a filter that waits for its {@code destroy} keeps handing permits to waiting
 * requests for the whole wait. Jetty 12 stops gracefully (a stop timeout, its {@code graceful}
 * module) by calling {@code shutdown()} on every {@code Graceful} component of the server, then
 * waiting up to the timeout, closing the connections and only then stopping the contexts: the
 * requests started meanwhile run in the application, the clients of those still running when
 * the connections close get no answer (issue 33: 7 such in a 5 s stop with 300 waiting), and
 * the waiting ones are answered to closed connections. Tomcat with
 * {@code gracefulStopAwaitMillis} waits for the connections before it stops the contexts
 * (measured: 20 waiting requests started during a 5 s stop). Here the filter stops admitting
 * when the stop begins: a {@code Graceful} component of its Jetty context, a
 * {@code before_stop} listener of its Tomcat service.
 *
 * <p>The filter is built against the servlet API only and a web application does not see the
 * container's classes, so the component is a {@link Proxy} of the container's own interface,
 * found through public methods of the context by reflection. In any other container this does
 * nothing and {@code destroy} remains the stop.
 */
final class GracefulStopSignal implements AutoCloseable {

  private static final OverloadLog LOG = OverloadLog.get(GracefulStopSignal.class);
  private static final String GRACEFUL = "org.eclipse.jetty.util.component.Graceful";
  private static final String LIFECYCLE_LISTENER = "org.apache.catalina.LifecycleListener";
  private static final String TOMCAT_RESOURCES = "org.apache.catalina.resources";

  /** Nothing to remove: the container offers no graceful stop we can hear. */
  private static final GracefulStopSignal NONE = new GracefulStopSignal(null, null, null, null);

  private final Object container;
  private final Object component;
  private final String remove;
  private final Class<?> type;

  private GracefulStopSignal(Object container, Object component, String remove, Class<?> type) {
    this.container = container;
    this.component = component;
    this.remove = remove;
    this.type = type;
  }

  /**
   * Calls {@code onStop} once when the container of {@code context} begins to stop. Never
   * throws: where the container offers no such signal, the filter's {@code destroy} stops it as
   * before.
   */
  static GracefulStopSignal listen(ServletContext context, Runnable onStop) {
    try {
      Object tomcatResources = context.getAttribute(TOMCAT_RESOURCES);
      return tomcatResources != null
          ? listenToTomcat(tomcatResources, onStop)
          : listenToJetty(context, onStop);
    } catch (NoSuchMethodException | ClassNotFoundException e) {
      return NONE; // neither container, or one without the signal
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("overload-control: cannot listen for the container's stop", e);
      return NONE;
    }
  }

  private static GracefulStopSignal listenToJetty(ServletContext context, Runnable onStop)
      throws ReflectiveOperationException {
    Object handler = context.getClass().getMethod("getContextHandler").invoke(context);
    if (handler == null) {
      return NONE;
    }
    Class<?> graceful = Class.forName(GRACEFUL, false, handler.getClass().getClassLoader());
    Object component =
        Proxy.newProxyInstance(
            graceful.getClassLoader(), new Class<?>[] {graceful}, new Component(onStop));
    handler.getClass().getMethod("addBean", Object.class).invoke(handler, component);
    return new GracefulStopSignal(handler, component, "removeBean", Object.class);
  }

  /** The web resources know their context; its host's engine knows the service that stops. */
  private static GracefulStopSignal listenToTomcat(Object resources, Runnable onStop)
      throws ReflectiveOperationException {
    Object tomcatContext = resources.getClass().getMethod("getContext").invoke(resources);
    Object host = tomcatContext.getClass().getMethod("getParent").invoke(tomcatContext);
    Object engine = host.getClass().getMethod("getParent").invoke(host);
    Object service = engine.getClass().getMethod("getService").invoke(engine);
    Class<?> listener =
        Class.forName(LIFECYCLE_LISTENER, false, service.getClass().getClassLoader());
    Object component =
        Proxy.newProxyInstance(
            listener.getClassLoader(), new Class<?>[] {listener}, new Component(onStop));
    service.getClass().getMethod("addLifecycleListener", listener).invoke(service, component);
    return new GracefulStopSignal(service, component, "removeLifecycleListener", listener);
  }

  /** Leaves the container's components (at the filter's destroy). */
  @Override
  public void close() {
    if (container == null) {
      return;
    }
    try {
      container.getClass().getMethod(remove, type).invoke(container, component);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("overload-control: cannot leave the container's components", e);
    }
  }

  /**
   * The container's component: Jetty's {@code Graceful}, whose {@code shutdown()} is the start of
   * the stop, or Tomcat's {@code LifecycleListener}, told {@code before_stop}.
   */
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
        case "lifecycleEvent":
          if (isBeforeStop(args[0]) && stopped.compareAndSet(false, true)) {
            onStop.run();
          }
          return null;
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

    private static boolean isBeforeStop(Object lifecycleEvent) {
      try {
        return "before_stop"
            .equals(lifecycleEvent.getClass().getMethod("getType").invoke(lifecycleEvent));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return false;
      }
    }
  }
}
