package io.aiperf.jenkins;

import hudson.model.Result;

/** Where a verdict worse than SUCCESS goes: the build, and in Pipeline also the stage of the step. */
interface ResultHandler {
    /** Marks the build (and stage) with this result, never making it better. */
    void setResult(Result result, String message);
}
