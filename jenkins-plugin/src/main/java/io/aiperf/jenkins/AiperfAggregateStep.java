package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jenkinsci.Symbol;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;

/**
 * {@code aiperfAggregate(gate: 'rules.yaml')}: merges the cells this build's {@code aiperfProfile(cells: ...)}
 * calls archived (on any agent) into one run with its aggregates, gates it against earlier builds' merged runs,
 * archives it under {@code aiperf/aggregate/} and returns its summary.
 */
public final class AiperfAggregateStep extends Step {
    /** Where the merged run is written in the workspace unless told otherwise. */
    public static final String DEFAULT_ARTIFACT_DIR = "aiperf-aggregate";
    private String artifactDir = DEFAULT_ARTIFACT_DIR;
    private String gate;
    private String baseline;
    private boolean archive = true;
    private boolean unstableOnWarnings;

    @DataBoundConstructor
    public AiperfAggregateStep() {
        // every setting is optional
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(this, context);
    }

    static final class Execution extends EngineStepExecution<Map<String, Object>> {
        private static final long serialVersionUID = 1L;
        private final transient AiperfAggregateStep step;

        Execution(final AiperfAggregateStep step, final StepContext context) {
            super(context);
            this.step = step;
        }

        @Override
        protected Map<String, Object> work() throws Exception {
            final StepContext ctx = getContext();
            final Run<?, ?> run = ctx.get(Run.class);
            try (EngineRun engine = new EngineRun(run, ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                final FilePath cells = engine.scratch().child("cells");
                if (ArchivedFiles.copy(run, ArchivePlanner.CELLS_PREFIX, "**/*", cells) == 0) {
                    throw new AbortException("aiperfAggregate: this build archived no cells; run "
                            + "aiperfProfile(cells: [...]) with archive: true first");
                }
                final List<String> baselines = Baselines.fetch(engine, ArchivePlanner.AGGREGATE_PREFIX, step.gate,
                        step.baseline);
                final EngineInvocation invocation;
                try {
                    invocation = InvocationPlanner.aggregate(engine.engineCommand(), List.of(cells.getRemote()),
                            step.artifactDir, step.gate, baselines);
                } catch (IllegalArgumentException e) {
                    throw new AbortException("aiperfAggregate: " + e.getMessage());
                }
                return engine.execute(invocation, ArchivePlanner.AGGREGATE_PREFIX, step.archive,
                        step.unstableOnWarnings, null, false, new PipelineResultHandler(run, ctx.get(FlowNode.class)));
            }
        }
    }

    @Extension
    @Symbol("aiperfAggregate")
    public static final class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return "aiperfAggregate";
        }

        @Override
        public String getDisplayName() {
            return "Merge and gate the AIPerf cells of this build";
        }

        /** The fields share their help with the freestyle form's, which has one page per field. */
        @Override
        public String getHelpFile(final String fieldName) {
            return jenkins.model.Jenkins.get().getDescriptorOrDie(AiperfProfileBuilder.class).getHelpFile(fieldName);
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class, FlowNode.class);
        }
    }

    public String getArtifactDir() {
        return artifactDir;
    }

    @DataBoundSetter
    public void setArtifactDir(final String artifactDir) {
        this.artifactDir = Blanks.toNull(artifactDir) == null ? DEFAULT_ARTIFACT_DIR : artifactDir.trim();
    }

    public String getGate() {
        return gate;
    }

    @DataBoundSetter
    public void setGate(final String gate) {
        this.gate = Blanks.toNull(gate);
    }

    public String getBaseline() {
        return baseline;
    }

    @DataBoundSetter
    public void setBaseline(final String baseline) {
        this.baseline = Blanks.toNull(baseline);
    }

    public boolean isArchive() {
        return archive;
    }

    @DataBoundSetter
    public void setArchive(final boolean archive) {
        this.archive = archive;
    }

    public boolean isUnstableOnWarnings() {
        return unstableOnWarnings;
    }

    @DataBoundSetter
    public void setUnstableOnWarnings(final boolean unstableOnWarnings) {
        this.unstableOnWarnings = unstableOnWarnings;
    }
}
