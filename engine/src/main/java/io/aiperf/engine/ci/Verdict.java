package io.aiperf.engine.ci;

/** What a CI build should become, mirroring Jenkins' results. */
public enum Verdict { SUCCESS, UNSTABLE, FAILURE, ABORTED }
