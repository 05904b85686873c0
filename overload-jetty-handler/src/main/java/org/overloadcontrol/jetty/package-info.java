/**
 * The overload-control engine on Jetty 12's core {@code Handler} API, for servers that run
 * without a servlet layer: {@link org.overloadcontrol.jetty.OverloadHandler}, and the Jetty
 * module ({@code modules/overload.mod}, {@code etc/overload.xml}) that puts it in a standalone
 * Jetty.
 */
package org.overloadcontrol.jetty;
