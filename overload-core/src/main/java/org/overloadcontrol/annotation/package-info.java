/**
 * Annotations that tell overload control a request's endpoint, request class, response-time
 * target and whether it can degrade. On a servlet class they are read when the filter starts,
 * from the servlets the container has registered. On a Jakarta REST resource method or a Spring
 * {@code @RequestMapping} method (and its class; the method's own annotation wins) they are read
 * once by the framework module. Either way they form the lowest layer of configuration.
 */
package org.overloadcontrol.annotation;
