/**
 * Configuration: the parser, key tables and codecs, the layered sources and the settings of every
 * section, each parsed and validated once.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.config;
