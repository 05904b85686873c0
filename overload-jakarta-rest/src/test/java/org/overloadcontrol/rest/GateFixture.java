package org.overloadcontrol.rest;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * What the gate's tests share: the resource method {@value #ENDPOINT} under a concurrency limit
 * of one, a request over it refused as it may not wait on its thread, on a fake clock whose
 * timers never fire, and the requests the implementation hands over.
 */
final class GateFixture implements AutoCloseable {

  static final String ENDPOINT = "GateResource#search";

  final FakeTicker ticker = new FakeTicker();
  final OverloadRuntime runtime;
  final RestGate gate;

  /** With the {@code extra} keys, the runtime built with {@code options}. */
  GateFixture(Map<String, String> extra, UnaryOperator<OverloadRuntime.Builder> options) {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("endpoints." + ENDPOINT + ".target", "2s");
    keys.put("admission.controller", "concurrency");
    keys.put("admission.initialLimit", "1");
    keys.put("admission.maxLimit", "1");
    keys.put("queue.nonAsync", "reject");
    keys.putAll(extra);
    runtime =
        options
            .apply(
                OverloadRuntime.builder(OverloadConfig.of(keys))
                    .ticker(ticker)
                    .scheduler(new FakeScheduler(ticker), "test"))
            .start();
    gate = new RestGate(runtime.pipeline(), ENDPOINT);
  }

  /** A GET of /gate/search by a client with no cookie, as the implementation hands it over. */
  static ContainerRequestContext request() {
    ContainerRequestContext request = mock(ContainerRequestContext.class);
    UriInfo uri = mock(UriInfo.class);
    when(uri.getPath()).thenReturn("gate/search");
    when(uri.getRequestUri()).thenReturn(URI.create("http://127.0.0.1/gate/search"));
    when(uri.getBaseUri()).thenReturn(URI.create("http://127.0.0.1/"));
    when(request.getUriInfo()).thenReturn(uri);
    when(request.getMethod()).thenReturn("GET");
    when(request.getHeaderString(anyString())).thenReturn(null);
    when(request.getCookies()).thenReturn(Map.of());
    when(request.getSecurityContext()).thenReturn(mock(SecurityContext.class));
    when(request.getLength()).thenReturn(-1);
    Map<String, Object> properties = new HashMap<>();
    doAnswer(i -> properties.put(i.getArgument(0), i.getArgument(1)))
        .when(request)
        .setProperty(anyString(), any());
    doAnswer(i -> properties.remove(i.<String>getArgument(0)))
        .when(request)
        .removeProperty(anyString());
    when(request.getProperty(anyString())).thenAnswer(i -> properties.get(i.getArgument(0)));
    return request;
  }

  @Override
  public void close() {
    runtime.close();
  }
}
