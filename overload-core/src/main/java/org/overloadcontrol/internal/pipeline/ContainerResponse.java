package org.overloadcontrol.internal.pipeline;

import java.util.List;
import java.util.Map;

/**
 * A container's response as {@link StepResponses} writes an answer or a refusal onto it: the
 * little each adapter translates (the servlet response, Jetty's core response, a Jakarta REST
 * response being built), so that what is written, and in which order, is decided once.
 *
 * @param <X> what writing may throw: {@code IOException} for a blocking write, an unchecked
 *     exception for a container that writes without blocking or builds a response
 */
@FunctionalInterface
public interface ContainerResponse<X extends Exception> {

  /**
   * Writes the whole response in place of whatever was set on it before (status, headers, a
   * buffered body: a new response has none), and ends it.
   *
   * @param headers in order; a name that comes twice is two header lines
   * @return false, writing nothing, when the response is already on its way to the client
   * @throws X when the client cannot be written to (it left)
   */
  boolean write(
      int status, List<Map.Entry<String, String>> headers, String contentType, byte[] body)
      throws X;
}
