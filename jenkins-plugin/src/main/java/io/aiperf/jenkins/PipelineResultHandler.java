package io.aiperf.jenkins;

import hudson.model.Result;
import hudson.model.Run;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

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
}
