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
import org.kohsuke.stapler.DataBoundSetter;

/**
 * {@code aiperfCells(config: 'bench.yaml')}: the config's cell ids, so a Jenkinsfile can spread the cells over
 * agents with {@code parallel}, each branch running {@code aiperfProfile(config: ..., cells: [id])}.
 */
public final class AiperfCellsStep extends Step {
    private final String config;
    private String jdk;

    @DataBoundConstructor
    public AiperfCellsStep(final String config) {
        this.config = Blanks.toNull(config);
    }

    public String getConfig() {
        return config;
    }

    public String getJdk() {
        return jdk;
    }

    @DataBoundSetter
    public void setJdk(final String jdk) {
        this.jdk = Blanks.toNull(jdk);
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(config, jdk, context);
    }

    static final class Execution extends EngineStepExecution<List<String>> {
        private static final long serialVersionUID = 1L;
        private final String config;
        private final String jdk;

        Execution(final String config, final String jdk, final StepContext context) {
            super(context);
            this.config = config;
            this.jdk = jdk;
        }

        @Override
        protected List<String> work() throws Exception {
            final StepContext ctx = getContext();
            try (EngineRun engine = new EngineRun(ctx.get(Run.class), ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                final List<String> cmd;
                try {
                    cmd = InvocationPlanner.cells(engine.engineCommand(jdk, "config"), config);
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

        /** Fields it shares with {@code aiperfProfile} share their help page. */
        @Override
        public String getHelpFile(final String fieldName) {
            final String own = super.getHelpFile(fieldName);
            return own != null ? own : Help.shared(fieldName);
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class);
        }
    }
}
