package org.overloadcontrol.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.overloadcontrol.base.RequestKind;

/**
 * Puts the requests a servlet serves into a request class, and defines the class.
 *
 * <pre>
 * &#64;RequestClass(value = "payment", rank = 7, kind = RequestKind.TRANSACTION, utility = 4500)
 * public class PaymentServlet extends HttpServlet { ... }
 * </pre>
 *
 * <p>Several servlets may name the same class; they must then agree on its rank, kind and
 * utility. Configuration rules ({@code classes.<name>.match.*}) and {@code endpoints.<e>.class}
 * take precedence over this annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RequestClass {

  /** The class's name: letters, digits, '_' and '-'. */
  String value();

  /** Higher is more important: lower ranks are shed first (Welsh &amp; Culler 2003, §3.3). */
  int rank() default 0;

  /** Browsing or transaction (LIFO-Pri, Singhmar et al. 2004). */
  RequestKind kind() default RequestKind.BROWSING;

  /** Utility of serving one request of this class (LIFO-Pri Table 3). */
  double utility() default 1.0;
}
