package org.overloadcontrol.it.experiments.springcold;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The user's application of the cold-start report: Spring Boot's web starter and ours, and one
 * controller ({@link WorkController}); every other setting is Spring Boot's and the starter's
 * default. {@link ColdStartServer} starts it.
 */
@SpringBootApplication
public class ColdStartApplication {}
