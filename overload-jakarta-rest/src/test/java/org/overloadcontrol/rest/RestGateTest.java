package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * Issue 35: the Jakarta REST feature writes a refusal as the filter and the Jetty handler do,
 * the whole response with no cookie meant for a request that runs, and a request that runs
 * carries them. Sessions are admitted with a signed cookie under a concurrency limit of one;
 * while the first request runs, a second new session is admitted as a session (the exchange
 * holds its cookie) and then refused, as it may not wait on its thread. The feature once sent
 * that cookie on the 503, naming a session that never started.
 */
class RestGateTest {

  /** On the fake clock: no window of the session gate's load closes while the test runs. */
  private final GateFixture fixture =
      new GateFixture(Map.of("sessions.enabled", "true"), UnaryOperator.identity());

  private final RestGate gate = fixture.gate;

  @AfterEach
  void close() {
    fixture.close();
  }

  /** A GET of /gate/search by a client with no cookie that accepts JSON. */
  private static ContainerRequestContext request() {
    ContainerRequestContext request = GateFixture.request();
    when(request.getHeaderString("Accept")).thenReturn("application/json");
    return request;
  }

  @Test
  void aRefusalCarriesNoCookieOfTheRunAndARunCarriesItsSession() {
    ContainerRequestContext ran = request();
    gate.filter(ran);
    verify(ran, never()).abortWith(any());

    ContainerRequestContext refused = request();
    gate.filter(refused);
    ArgumentCaptor<Response> answer = ArgumentCaptor.forClass(Response.class);
    verify(refused).abortWith(answer.capture());
    Response response = answer.getValue();
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeaders().get("Set-Cookie")).as("cookies on the refusal").isNull();
    assertThat(response.getHeaderString("Cache-Control")).isEqualTo("no-store");
    assertThat(response.getHeaderString("Retry-After")).matches("[1-9][0-9]*");
    assertThat(response.getMediaType().toString()).isEqualTo("application/problem+json");
    assertThat(new String((byte[]) response.getEntity(), StandardCharsets.UTF_8))
        .contains("\"endpoint\":\"GateResource#search\"", "\"reason\":\"no-async\"");

    ContainerResponseContext ranResponse = mock(ContainerResponseContext.class);
    MultivaluedMap<String, Object> ranHeaders = new MultivaluedHashMap<>();
    when(ranResponse.getHeaders()).thenReturn(ranHeaders);
    when(ranResponse.getStatus()).thenReturn(200);
    gate.filter(ran, ranResponse);
    assertThat(ranHeaders.get("Set-Cookie"))
        .as("cookies of the request that ran")
        .singleElement()
        .asString()
        .startsWith("oc_session=");
  }
}
