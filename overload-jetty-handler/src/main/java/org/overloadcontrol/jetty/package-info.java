/**
 * The overload-control engine on Jetty 12's core {@code Handler} API, for servers that run
 * without a servlet layer. The handler itself ({@code OverloadHandler}) is the subject of the
 * Jetty-handler issue; this module builds now so the project's layout is complete.
 */
package org.overloadcontrol.jetty;
