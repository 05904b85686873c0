package org.overloadcontrol.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.pipeline.ConnectionWatch;

/**
 * Tells when the client of a suspended HTTP/1 request closes its connection, in Jetty 12: Jetty's
 * side of a {@link ConnectionWatch}, which the servlet API cannot give: neither container reads a connection whose request is suspended, and
 * a {@code ReadListener} on a request without a body hears {@code onAllDataRead} at once and
 * nothing after (measured in Jetty 12.0 and Tomcat 10.1, closed and reset alike). A request
 * without a body has been read to its end, so the only bytes that can come before its response
 * are the end of the stream or, rarely, a pipelined next request: the watch asks Jetty's end
 * point of the connection to say when it is readable and reads one byte. The Jetty handler does
 * the same with Jetty's types; here the filter, built against the servlet API only, reaches
 * them by reflection through the request's public methods, as {@link GracefulStopSignal} does.
 * In any other container, or when anything differs, it watches nothing.
 *
 */
final class JettyClientWatch implements InvocationHandler {

  private static final OverloadLog LOG = OverloadLog.get(JettyClientWatch.class);

  /**
   * Jetty's methods, looked up once per class of container request (a handful); empty outside
   * Jetty. A map held by this class, not a {@code ClassValue}, whose entries would live in the
   * container's class and keep the application's class loader from being collected.
   */
  private static final Map<Class<?>, Optional<Access>> ACCESS = new ConcurrentHashMap<>();

  private final Access jetty;
  private final Object endPoint;
  private final ConnectionWatch watch;

  private JettyClientWatch(Access jetty, Object endPoint, Runnable left) {
    this.jetty = jetty;
    this.endPoint = endPoint;
    this.watch = new ConnectionWatch(this::readOne, this::giveBack, left);
  }

  /**
   * Watches the connection of {@code request} for its client closing it, calling {@code left}
   * once if it does. Returns null, watching nothing, outside Jetty, for a request that may have
   * a body (its bytes belong to the application) or is not HTTP/1, or when the connection is
   * read already. Never throws.
   */
  static JettyClientWatch start(HttpServletRequest request, Runnable left) {
    String protocol = request.getProtocol();
    if (!"HTTP/1.1".equals(protocol) && !"HTTP/1.0".equals(protocol)) {
      return null;
    }
    if (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null) {
      return null;
    }
    ServletRequest inner = request;
    while (inner instanceof ServletRequestWrapper wrapper) {
      inner = wrapper.getRequest();
    }
    Access jetty = ACCESS.computeIfAbsent(inner.getClass(), Access::of).orElse(null);
    if (jetty == null) {
      return null;
    }
    try {
      Object core = jetty.coreRequest.invoke(inner);
      if (!jetty.coreType.isInstance(core)) {
        return null;
      }
      Object metaData = jetty.connectionMetaData.invoke(core);
      Object connection = jetty.connection.invoke(metaData);
      Object endPoint = connection == null ? null : jetty.endPoint.invoke(connection);
      if (!jetty.abstractEndPoint.isInstance(endPoint)) {
        return null;
      }
      JettyClientWatch watch = new JettyClientWatch(jetty, endPoint, left);
      Object callback =
          Proxy.newProxyInstance(
              jetty.callbackType.getClassLoader(), new Class<?>[] {jetty.callbackType}, watch);
      return (Boolean) jetty.tryFillInterested.invoke(endPoint, callback) ? watch : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("overload-control: cannot watch the client's connection: {}", e.toString());
      return null;
    }
  }

  /** See {@link ConnectionWatch#stop}. */
  boolean stop() {
    return watch.stop();
  }

  /** Jetty's {@code Callback} of the read interest. */
  @Override
  public Object invoke(Object proxy, Method method, Object[] args) {
    switch (method.getName()) {
      case "succeeded" -> watch.readable();
      case "failed" -> watch.closed();
      case "getInvocationType" -> {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object blocking = Enum.valueOf((Class<Enum>) method.getReturnType(), "BLOCKING");
        return blocking;
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "equals" -> {
        return proxy == args[0];
      }
      case "toString" -> {
        return watch.toString();
      }
      default -> {
        // Nothing else of Callback's is called on a read interest.
      }
    }
    return null;
  }

  private int readOne() {
    ByteBuffer one = ByteBuffer.allocate(1);
    one.flip();
    try {
      return (Integer) jetty.fill.invoke(endPoint, one);
    } catch (InvocationTargetException e) {
      return -1; // an I/O error reading: a reset
    } catch (ReflectiveOperationException | RuntimeException e) {
      return 0;
    }
  }

  private void giveBack() {
    try {
      Object interest = jetty.fillInterest.invoke(endPoint);
      jetty.onFail.invoke(interest, new CancellationException("no longer held"));
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("overload-control: could not stop watching a connection: {}", e.toString());
    }
  }

  /** Jetty's public types and methods the watch calls, from Jetty's own class loader. */
  private record Access(
      Method coreRequest,
      Class<?> coreType,
      Method connectionMetaData,
      Method connection,
      Method endPoint,
      Class<?> abstractEndPoint,
      Class<?> callbackType,
      Method tryFillInterested,
      Method fill,
      Method fillInterest,
      Method onFail) {

    /** Empty unless {@code requestType} is Jetty 12's servlet request over a core request. */
    static Optional<Access> of(Class<?> requestType) {
      try {
        Method coreRequest = requestType.getMethod("getRequest");
        ClassLoader loader = requestType.getClassLoader();
        Class<?> coreType = Class.forName("org.eclipse.jetty.server.Request", false, loader);
        if (!coreType.isAssignableFrom(coreRequest.getReturnType())) {
          return Optional.empty();
        }
        Class<?> metaData =
            Class.forName("org.eclipse.jetty.server.ConnectionMetaData", false, loader);
        Class<?> connection = Class.forName("org.eclipse.jetty.io.Connection", false, loader);
        Class<?> endPoint = Class.forName("org.eclipse.jetty.io.EndPoint", false, loader);
        Class<?> abstractEndPoint =
            Class.forName("org.eclipse.jetty.io.AbstractEndPoint", false, loader);
        Class<?> fillInterest = Class.forName("org.eclipse.jetty.io.FillInterest", false, loader);
        Class<?> callback = Class.forName("org.eclipse.jetty.util.Callback", false, loader);
        return Optional.of(
            new Access(
                coreRequest,
                coreType,
                coreType.getMethod("getConnectionMetaData"),
                metaData.getMethod("getConnection"),
                connection.getMethod("getEndPoint"),
                abstractEndPoint,
                callback,
                endPoint.getMethod("tryFillInterested", callback),
                endPoint.getMethod("fill", ByteBuffer.class),
                abstractEndPoint.getMethod("getFillInterest"),
                fillInterest.getMethod("onFail", Throwable.class)));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return Optional.empty();
      }
    }
  }
}
