package org.overloadcontrol.it.support;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One user's browser for functional tests: keeps its cookies (so its HTTP session), follows
 * redirects (a 303 after a POST becomes a GET, as in a browser), asks for HTML, and talks only
 * to the given base URL on 127.0.0.1.
 */
public final class Browser {

  /** A page as the browser got it, after redirects. */
  public record Page(int status, URI uri, String body, Optional<String> retryAfter) {

    private static final Pattern SHOP_PAGE =
        Pattern.compile("<meta\\s+name=\"shop-page\"\\s+content=\"([^\"]*)\"");
    private static final Pattern ORDER_ID =
        Pattern.compile("<span\\s+id=\"order-id\"\\s*>([^<]+)</span>");

    /** The {@code <meta name="shop-page">} content, if the page has one. */
    public Optional<String> shopPage() {
      return first(SHOP_PAGE);
    }

    /** The text of {@code <span id="order-id">}, if the page has one. */
    public Optional<String> orderId() {
      return first(ORDER_ID).map(String::trim);
    }

    private Optional<String> first(Pattern p) {
      Matcher m = p.matcher(body);
      return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
  }

  private final URI base;
  private final HttpClient client;

  public Browser(URI base) {
    this.base = base;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  /** GET {@code path}, relative to the base URL (no leading slash for context-relative). */
  public Page get(String path) throws IOException, InterruptedException {
    return send(request(path).GET().build());
  }

  /** GET {@code path} as bytes, for images: the response itself, headers and all. */
  public HttpResponse<byte[]> getBytes(String path) throws IOException, InterruptedException {
    return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** POST {@code form} url-encoded to {@code path}. */
  public Page post(String path, Map<String, String> form) throws IOException, InterruptedException {
    String body =
        form.entrySet().stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
    return send(
        request(path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(base.resolve(path))
        .timeout(Duration.ofSeconds(30))
        .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8");
  }

  private Page send(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<String> r;
    try {
      r = client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // A connection the server closed just as the client sent on it ("received no bytes",
      // broken pipe) is a transport race, not an answer: send once more on a new connection.
      r = client.send(request, HttpResponse.BodyHandlers.ofString());
    }
    return new Page(r.statusCode(), r.uri(), r.body(), r.headers().firstValue("Retry-After"));
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
