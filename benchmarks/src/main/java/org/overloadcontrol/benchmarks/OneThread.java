package org.overloadcontrol.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link EngineHotPath} on one thread. */
@Threads(1)
public class OneThread extends EngineHotPath {}
