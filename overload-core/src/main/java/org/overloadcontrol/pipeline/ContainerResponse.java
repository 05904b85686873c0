package org.overloadcontrol.pipeline;

/**
 * A container's response as {@link StepResponses} writes an answer or a refusal onto it: the
 * little each adapter translates (the servlet response, Jetty's core response, a Jakarta REST
 * response being built), so that what is written, and in which order, is decided once.
 *
 * @param <X> what writing the body may throw: {@code IOException} for a blocking write, an
 *     unchecked exception for a container that writes without blocking or builds a response
 */
public interface ContainerResponse<X extends Exception> {

  /** Whether the status and headers are already on their way to the client. */
  boolean isCommitted();

  /** Drops the status, headers and buffered body set so far; a new response has none. */
  void reset();

  void status(int status);

  /** Adds one header value; a second value of the same name is another header line. */
  void header(String name, String value);

  /**
   * Writes the whole body, with its content type and length, and ends the response.
   *
   * @throws X when the client cannot be written to (it left)
   */
  void body(String contentType, byte[] body) throws X;
}
