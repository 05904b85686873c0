package org.overloadcontrol.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a servlet's endpoint as degradable: under overload its quality falls from 1 towards
 * {@link #minQuality()} so that more requests can be served, each with less work (Welsh &amp;
 * Culler 2003, §3.4 and §4.5). The servlet reads the quality of each request from
 * {@code OverloadContext.quality()} and acts on it.
 *
 * <pre>
 * &#64;Degradable(minQuality = 0.2)
 * &#64;ResponseTimeTarget("2s")
 * public class SearchServlet extends HttpServlet {
 *   protected void doGet(HttpServletRequest req, HttpServletResponse res) {
 *     double q = Overload.context(req).map(OverloadContext::quality).orElse(1.0);
 *     List&lt;Product&gt; shown = results.subList(0, Math.max(1, (int) Math.ceil(q * results.size())));
 *     ...
 * </pre>
 *
 * <p>The endpoint needs a response-time target ({@link ResponseTimeTarget} or configuration).
 * Configuration ({@code degrade.endpoints.<e>.*}) overrides this annotation key by key; see
 * docs/degradation.md.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Degradable {

  /** The lowest quality, q_min, in [0, 1]. */
  double minQuality() default 0.2;

  /**
   * Whether admission control takes over when even {@link #minQuality()} misses the target
   * (the default, the paper's Figure 13), or the endpoint only degrades and admits every
   * request (Figure 12).
   */
  boolean withAdmissionControl() default true;
}
