package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.model.Result;
import hudson.model.Run;

/** Freestyle: only the build has a result. */
final class RunResultHandler implements ResultHandler {
    private final Run<?, ?> run;

    RunResultHandler(final Run<?, ?> run) {
        this.run = run;
    }

    @Override
    public void setResult(final Result result, final String message) {
        run.setResult(result);
    }

    /** ABORTED is worse than the FAILURE the thrown exception brings, so the build ends ABORTED. */
    @Override
    public void abort(final String message) throws AbortException {
        run.setResult(Result.ABORTED);
        throw new AbortException(message);
    }
}
