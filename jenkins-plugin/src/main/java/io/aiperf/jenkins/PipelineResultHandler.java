package io.aiperf.jenkins;

import hudson.model.Result;
import hudson.model.Run;
import jenkins.model.CauseOfInterruption;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;

/** Pipeline: the build, and the step's node so the stage shows the result too (as junit and warnings-ng do). */
final class PipelineResultHandler implements ResultHandler {
    private final Run<?, ?> run;
    private final FlowNode node;

    PipelineResultHandler(final Run<?, ?> run, final FlowNode node) {
        this.run = run;
        this.node = node;
    }

    @Override
    public void setResult(final Result result, final String message) {
        run.setResult(result);
        final WarningAction existing = node.getPersistentAction(WarningAction.class);
        if (existing == null || result.isWorseThan(existing.getResult())) {
            node.addOrReplaceAction(new WarningAction(result).withMessage(message));
        }
    }

    /** Not an actual interruption of the build (nobody aborted it), so catchError can still handle it. */
    @Override
    public void abort(final String message) throws FlowInterruptedException {
        throw new FlowInterruptedException(Result.ABORTED, false, new EngineStopped(message));
    }

    /** Why the step ended ABORTED, shown in the build log and on the build. */
    static final class EngineStopped extends CauseOfInterruption {
        private static final long serialVersionUID = 1L;
        private final String message;

        EngineStopped(final String message) {
            this.message = message;
        }

        @Override
        public String getShortDescription() {
            return message;
        }
    }
}
