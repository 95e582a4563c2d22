package io.aiperf.jenkins;

import hudson.model.Result;
import java.io.IOException;

/** Where a verdict worse than SUCCESS goes: the build, and in Pipeline also the stage of the step. */
interface ResultHandler {
    /** Marks the build (and stage) with this result, never making it better. */
    void setResult(Result result, String message);

    /** Ends the step as aborted, because the engine was stopped by a signal that was not a Jenkins abort. */
    void abort(String message) throws IOException, InterruptedException;
}
