package org.overloadcontrol.servlet;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the body bytes an application writes, for bandwidth measurement (Li &amp; Jamin: bytes
 * over response time). Wrapped around the response only when bandwidth shares are configured,
 * so other requests pay nothing. The writer encodes through the counting stream, in the
 * response's character encoding, so characters are counted as the bytes they become.
 */
final class CountingResponse extends HttpServletResponseWrapper {

  /** Request attribute under which the filter finds the counter at completion. */
  static final String ATTRIBUTE = CountingResponse.class.getName();

  private final LongAdder bytes = new LongAdder();
  private ServletOutputStream stream;
  private PrintWriter writer;

  CountingResponse(HttpServletResponse response) {
    super(response);
  }

  /** Body bytes written so far. */
  long byteCount() {
    return bytes.sum();
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    if (writer != null) {
      throw new IllegalStateException("getWriter() has already been called");
    }
    if (stream == null) {
      ServletOutputStream inner = super.getOutputStream();
      stream =
          new ServletOutputStream() {
            @Override
            public void write(int b) throws IOException {
              inner.write(b);
              bytes.increment();
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              inner.write(b, off, len);
              bytes.add(len);
            }

            @Override
            public void flush() throws IOException {
              inner.flush();
            }

            @Override
            public void close() throws IOException {
              inner.close();
            }

            @Override
            public boolean isReady() {
              return inner.isReady();
            }

            @Override
            public void setWriteListener(WriteListener listener) {
              inner.setWriteListener(listener);
            }
          };
    }
    return stream;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    if (writer == null) {
      if (stream != null) {
        throw new IllegalStateException("getOutputStream() has already been called");
      }
      PrintWriter inner = super.getWriter();
      boolean utf8 = "UTF-8".equalsIgnoreCase(getCharacterEncoding());
      // No buffer of our own: the container flushes its writer at the end of the request, and
      // anything held here would be lost. Bytes are counted as UTF-8 encodes the characters
      // (exact for UTF-8, one byte a character for other encodings).
      writer =
          new PrintWriter(
              new Writer() {
                @Override
                public void write(char[] cbuf, int off, int len) {
                  inner.write(cbuf, off, len);
                  bytes.add(utf8 ? utf8Length(cbuf, off, len) : len);
                }

                @Override
                public void write(String str, int off, int len) {
                  inner.write(str, off, len);
                  bytes.add(utf8 ? utf8Length(str, off, len) : len);
                }

                @Override
                public void flush() {
                  inner.flush();
                }

                @Override
                public void close() {
                  inner.close();
                }
              });
    }
    return writer;
  }

  static long utf8Length(CharSequence s, int off, int len) {
    long n = 0;
    for (int i = off; i < off + len; i++) {
      n += utf8Bytes(s.charAt(i));
    }
    return n;
  }

  static long utf8Length(char[] s, int off, int len) {
    long n = 0;
    for (int i = off; i < off + len; i++) {
      n += utf8Bytes(s[i]);
    }
    return n;
  }

  private static int utf8Bytes(char c) {
    if (c < 0x80) {
      return 1;
    }
    if (c < 0x800) {
      return 2;
    }
    // A surrogate pair is four bytes: two for each half.
    return Character.isSurrogate(c) ? 2 : 3;
  }
}
