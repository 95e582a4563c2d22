package io.aiperf.engine.gate;

/** What a broken rule does to the verdict. */
public enum Criticality { UNSTABLE, FAILURE }
