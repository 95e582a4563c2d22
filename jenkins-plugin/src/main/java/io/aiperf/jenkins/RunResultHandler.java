package io.aiperf.jenkins;

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
}
