package org.overloadcontrol.sample.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The Jakarta REST application, under {@code /api}; its resources are found by scanning. */
@ApplicationPath("api")
public class OrdersApplication extends Application {}
