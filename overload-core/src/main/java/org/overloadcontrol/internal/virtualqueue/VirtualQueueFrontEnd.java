package org.overloadcontrol.internal.virtualqueue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.internal.capacity.CapacityEstimator;
import org.overloadcontrol.internal.capacity.CapacitySource;
import org.overloadcontrol.internal.capacity.FixedCapacity;
import org.overloadcontrol.internal.capacity.PassiveCapacity;
import org.overloadcontrol.internal.config.OptionalLibrary;
import org.overloadcontrol.internal.engine.Answer;

/**
 * The virtual queue (WebQ, Suresh et al.: TokenGen and TokenCheck, §II-C and §V-A) as one
 * adapter-neutral front end: from the facts of a request ({@link VirtualQueueVisit}) it decides
 * whether the request goes on, and renders the {@link Answer} when it does not. The engine's
 * request pipeline calls it for every adapter.
 *
 * <p>The token travels in the query parameter {@code oc_token} and in a cookie of the same name
 * ({@link TokenCookie}). A query token is authoritative: if it fails, the request is refused. A
 * cookie token that fails with a token fault is taken as stale (a finished visit, another page
 * below the same path) and the request joins the queue afresh.
 *
 * <p>Answers to a request told to wait:
 * <ul>
 *   <li>a browser (Accept has text/html) GET or HEAD: 200 and a page that counts down and
 *       retries by itself (meta refresh) with the token in the URL;</li>
 *   <li>a browser form POST ({@code application/x-www-form-urlencoded}, body up to
 *       {@code repostMaxBytes}): 200 and a page holding the fields that re-posts them with the
 *       token when the wait is over; the adapter reads the fields when {@link #keepsForm} says
 *       so;</li>
 *   <li>any other browser request with a body: 503 with {@code Retry-After} and a page saying
 *       the submission was not sent; the cookie keeps the place in line;</li>
 *   <li>an API client: 503, {@code Retry-After} and JSON with the token and retry URL.</li>
 * </ul>
 * Refusals: a token fault is 403 with a link to join again; an early token or a full queue is 503
 * with {@code Retry-After}.
 */
public final class VirtualQueueFrontEnd {

  private static final int OK = 200;
  private static final int FORBIDDEN = 403;
  private static final int UNAVAILABLE = 503;
  private static final String JSON = "application/json";

  private final VirtualQueueSettings settings;
  private final VirtualQueue queue;
  private final Ticker ticker;

  /**
   * @param queue the queue, or null when {@code settings} are disabled
   */
  public VirtualQueueFrontEnd(VirtualQueueSettings settings, VirtualQueue queue, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    if (settings.enabled() && queue == null) {
      throw new IllegalArgumentException("an enabled virtual queue needs a queue");
    }
    this.queue = settings.enabled() ? queue : null;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Builds the front end of {@code settings}: keys from the key file or environment variable (a
   * generated key with a warning when neither is given), capacity configured or estimated; as
   * one replica of a cluster unless {@code cluster} is standalone: the schedule takes its share
   * of the cluster's capacity, tokens are claimed cluster-wide, and a shared key is required.
   *
   * @param wallClock read once, to anchor token times to Unix seconds
   * @param slowWork where a capacity estimate runs (the adapter's timer thread)
   * @param webAppResources opens a web-application resource by path (a key file under
   *     {@code /WEB-INF/}), null when there is none
   * @throws org.overloadcontrol.config.OverloadConfigException on a bad key
   */
  public static VirtualQueueFrontEnd create(
      VirtualQueueSettings settings,
      Ticker ticker,
      Clock wallClock,
      Executor slowWork,
      java.util.function.Function<String, java.io.InputStream> webAppResources,
      ClusterCoordinator cluster) {
    return create(settings, ticker, wallClock, slowWork, webAppResources, cluster, null);
  }

  /**
   * The front end of a reloaded configuration: as the one it replaces, with the same token keys
   * when {@code before} had some (the key ring is not reloaded, so a token issued before the
   * reload still verifies after it; a random development key would otherwise change).
   */
  public static VirtualQueueFrontEnd reloaded(
      VirtualQueueFrontEnd before,
      VirtualQueueSettings settings,
      Ticker ticker,
      Clock wallClock,
      Executor slowWork,
      java.util.function.Function<String, java.io.InputStream> webAppResources) {
    return create(
        settings,
        ticker,
        wallClock,
        slowWork,
        webAppResources,
        ClusterCoordinator.STANDALONE,
        before.queue == null ? null : before.queue.keys());
  }

  private static VirtualQueueFrontEnd create(
      VirtualQueueSettings settings,
      Ticker ticker,
      Clock wallClock,
      Executor slowWork,
      java.util.function.Function<String, java.io.InputStream> webAppResources,
      ClusterCoordinator cluster,
      KeyRing carriedKeys) {
    if (!settings.enabled()) {
      return new VirtualQueueFrontEnd(settings, null, ticker);
    }
    if (settings.capacityAuto()) {
      OptionalLibrary.COMMONS_MATH.require("virtualQueue.capacity", "the capacity estimator");
    }
    CapacitySource capacity =
        settings.capacityAuto()
            ? new PassiveCapacity(
                settings.epoch().toNanos(),
                settings.trainingEpochs(),
                6,
                CapacityEstimator.defaults(),
                slowWork,
                ticker.read())
            : new FixedCapacity(settings.capacity(), settings.hardness());
    VirtualQueue queue =
        VirtualQueue.of(
            settings,
            carriedKeys != null
                ? carriedKeys
                : KeyRingLoader.load(
                    settings,
                    System::getenv,
                    webAppResources,
                    new SecureRandom(),
                    cluster != ClusterCoordinator.STANDALONE),
            capacity,
            EpochClock.anchored(ticker, wallClock),
            cluster);
    return new VirtualQueueFrontEnd(settings, queue, ticker);
  }

  /** Whether the queue is switched on. */
  public boolean enabled() {
    return queue != null;
  }

  /** The queue, for metrics; null when disabled. */
  public VirtualQueue queue() {
    return queue;
  }

  public VirtualQueueSettings settings() {
    return settings;
  }

  /** Whether the queue is on and protects {@code path} (decoded, within the application). */
  public boolean protects(String path) {
    return queue != null && settings.protects(path);
  }

  /** Decides for one request: it goes on, or it is told to wait, or it is refused. */
  public VisitVerdict visit(VirtualQueueVisit visit) {
    if (!protects(visit.path())) {
      return VisitVerdict.UNPROTECTED;
    }
    String address = visit.clientAddress();
    String url = TokenUrls.bound(visit.requestUri(), visit.rawQuery());
    String type = settings.typeOf(visit.path());
    long now = ticker.read();
    String queryToken = TokenUrls.token(visit.rawQuery());
    String cookieToken = visit.cookieToken();
    String token = queryToken != null ? queryToken : cookieToken;
    VirtualQueueDecision decision = queue.decide(address, url, token, type, now);
    if (queryToken == null
        && cookieToken != null
        && decision instanceof VirtualQueueDecision.Reject r
        && r.reason().tokenFault()) {
      // A stale cookie (used, expired, or set for another page under this path): join afresh.
      decision = queue.decide(address, url, null, type, now);
    }
    if (decision instanceof VirtualQueueDecision.Pass pass) {
      TokenCookie clear =
          pass.byToken() && cookieToken != null
              ? new TokenCookie("", TokenUrls.cookiePath(visit.requestUri()), 0, visit.secure())
              : null;
      return new VisitVerdict.Pass(type, clear, pass.byToken());
    }
    return new VisitVerdict.Stop(decision, url, token);
  }

  /**
   * Whether the answer to {@code stop} is the re-posting page, for which the adapter must read
   * the url-encoded form body (at most {@link #repostMaxBytes()}) and pass its fields to
   * {@link #answer}: a browser's form POST told to wait whose declared length is within bounds.
   */
  public boolean keepsForm(VirtualQueueVisit visit, VisitVerdict.Stop stop) {
    return stop.waiting()
        && Answer.wantsHtml(visit.accept())
        && visit.method().toUpperCase(Locale.ROOT).equals("POST")
        && UrlEncodedForm.isForm(visit.contentType())
        && visit.contentLength() <= settings.repostMaxBytes();
  }

  /** The largest form body the waiting page keeps and re-posts. */
  public int repostMaxBytes() {
    return settings.repostMaxBytes();
  }

  /**
   * The answer to a request that stopped.
   *
   * @param formFields the form's fields when {@link #keepsForm} was true and the body could be
   *     read within bounds; null otherwise (the user is asked to send it again)
   */
  public Answer answer(
      VirtualQueueVisit visit, VisitVerdict.Stop stop, List<Map.Entry<String, String>> formFields) {
    boolean browser = Answer.wantsHtml(visit.accept());
    if (stop.decision() instanceof VirtualQueueDecision.Wait wait) {
      TokenCookie cookie =
          new TokenCookie(
              wait.token(),
              TokenUrls.cookiePath(visit.requestUri()),
              wait.waitSeconds() + settings.graceSeconds() + 1,
              visit.secure());
      String retryUrl = TokenUrls.withToken(stop.boundUrl(), wait.token());
      String method = visit.method().toUpperCase(Locale.ROOT);
      if (!browser) {
        return answer(
            UNAVAILABLE, wait.waitSeconds(), cookie, JSON, WaitingPage.waitingJson(wait, retryUrl));
      }
      if (method.equals("GET") || method.equals("HEAD")) {
        return answer(
            OK,
            0,
            cookie,
            Answer.HTML,
            WaitingPage.waitingHtml(wait.waitSeconds(), wait.position(), retryUrl));
      }
      if (formFields != null && keepsForm(visit, stop)) {
        return answer(
            OK,
            0,
            cookie,
            Answer.HTML,
            WaitingPage.repostHtml(wait.waitSeconds(), wait.position(), retryUrl, formFields));
      }
      return answer(
          UNAVAILABLE,
          wait.waitSeconds(),
          cookie,
          Answer.HTML,
          WaitingPage.resubmitHtml(wait.waitSeconds()));
    }
    VirtualQueueDecision.Reject reject = (VirtualQueueDecision.Reject) stop.decision();
    boolean fault = reject.reason().tokenFault();
    int status = fault ? FORBIDDEN : UNAVAILABLE;
    long retry = fault ? 0 : Math.max(1, reject.retryAfterSeconds());
    String url = stop.boundUrl();
    if (browser) {
      String retryUrl = stop.token() == null ? url : TokenUrls.withToken(url, stop.token());
      return answer(
          status, retry, null, Answer.HTML, WaitingPage.rejectionHtml(reject, url, retryUrl));
    }
    return answer(
        status, retry, null, Answer.PROBLEM_JSON, WaitingPage.rejectionJson(reject, status, url));
  }

  private static Answer answer(
      int status, long retryAfterSeconds, TokenCookie cookie, String contentType, String body) {
    return new Answer(
        status,
        retryAfterSeconds,
        cookie == null ? List.of() : List.of(cookie.setCookie()),
        contentType,
        body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reports the completion of a request that passed ({@link VisitVerdict.Pass#type()}), for the
   * passive capacity estimate (§IV); call once, when its response is complete.
   */
  public void complete(String type, long responseNanos, boolean success) {
    if (queue != null && type != null) {
      queue.complete(type, responseNanos, success, ticker.read());
    }
  }
}
