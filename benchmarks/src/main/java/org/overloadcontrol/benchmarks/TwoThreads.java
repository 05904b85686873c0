package org.overloadcontrol.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link EngineHotPath} on two threads sharing one engine (as many as the machine's cores). */
@Threads(2)
public class TwoThreads extends EngineHotPath {}
