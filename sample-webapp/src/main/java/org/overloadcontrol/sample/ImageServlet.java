package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.base.RequestKind;

/**
 * {@code GET /images/N.jpg}: product N's picture, about 10 KB of real JPEG bytes with
 * Content-Length, drawn at start-up by {@link ProductImages}. No database work, no target: the
 * images are there for bandwidth shaping (Li &amp; Jamin). Anything else under /images is 404.
 */
@RequestClass(value = "images", rank = 0, kind = RequestKind.BROWSING, utility = 1)
public class ImageServlet extends ShopServlet {

  private static final long serialVersionUID = 1L;
  private static final Pattern NAME = Pattern.compile("/([0-9]{1,9})\\.jpg");

  @Override
  ShopPage page() {
    return ShopPage.IMAGES;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String path = request.getPathInfo();
    Matcher m = path == null ? null : NAME.matcher(path);
    byte[] jpeg =
        m != null && m.matches()
            ? shop().images().jpeg(Integer.parseInt(m.group(1))).orElse(null)
            : null;
    if (jpeg == null) {
      response.sendError(HttpServletResponse.SC_NOT_FOUND);
      return;
    }
    response.setContentType("image/jpeg");
    response.setHeader("Cache-Control", "public, max-age=3600");
    response.setContentLength(jpeg.length);
    response.getOutputStream().write(jpeg);
  }
}
