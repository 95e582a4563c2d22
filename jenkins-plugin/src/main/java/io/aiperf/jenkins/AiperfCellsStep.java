package io.aiperf.jenkins;

import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.aiperf.engine.ci.InvocationPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jenkinsci.Symbol;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * {@code aiperfCells(config: 'bench.yaml')}: the config's cell ids, so a Jenkinsfile can spread the cells over
 * agents with {@code parallel}, each branch running {@code aiperfProfile(config: ..., cells: [id])}.
 */
public final class AiperfCellsStep extends Step {
    private final String config;

    @DataBoundConstructor
    public AiperfCellsStep(final String config) {
        this.config = Blanks.toNull(config);
    }

    public String getConfig() {
        return config;
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(config, context);
    }

    static final class Execution extends EngineStepExecution<List<String>> {
        private static final long serialVersionUID = 1L;
        private final String config;

        Execution(final String config, final StepContext context) {
            super(context);
            this.config = config;
        }

        @Override
        protected List<String> work() throws Exception {
            final StepContext ctx = getContext();
            try (EngineRun engine = new EngineRun(ctx.get(Run.class), ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                final List<String> cmd;
                try {
                    cmd = InvocationPlanner.cells(engine.engineCommand(), config);
                } catch (IllegalArgumentException e) {
                    throw new hudson.AbortException("aiperfCells: " + e.getMessage());
                }
                return new ArrayList<>(InvocationPlanner.parseCells(engine.output(cmd)));
            }
        }
    }

    @Extension
    @Symbol("aiperfCells")
    public static final class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return "aiperfCells";
        }

        @Override
        public String getDisplayName() {
            return "List the cells of an AIPerf config";
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class);
        }
    }
}
