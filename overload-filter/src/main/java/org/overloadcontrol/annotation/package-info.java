/**
 * Annotations a servlet class carries to tell overload control its endpoint, request class
 * and response-time target. They are read when the filter starts, from the servlets the
 * container has registered, and form the lowest layer of configuration.
 */
package org.overloadcontrol.annotation;
