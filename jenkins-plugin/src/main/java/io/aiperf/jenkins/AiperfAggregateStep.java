package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.ProfileSpec;
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
 * {@code aiperfAggregate(gate: 'rules.yaml')}: merges exactly the cells this build's {@code aiperfProfile(cells: ...)}
 * calls with the same id archived (on any agent) into one run with its aggregates, gates it against earlier
 * builds' merged runs of that id, archives it under {@code aiperf/<id>/aggregate/} and returns its summary.
 */
public final class AiperfAggregateStep extends Step {
    private String id;
    private String artifactDir = ProfileSpec.DEFAULT_ARTIFACT_DIR;
    private String jdk;
    private String gate;
    private String baseline;
    private boolean archive = true;
    private boolean unstableOnWarnings;
    /** The job whose builds give the baselines (a full name, or relative to this job's folder); null: this job. */
    private String referenceJob;
    /** Whether to publish no check (checks-api). */
    private boolean skipPublishingChecks;
    /** The check's name, or null for AIPerf <id>. */
    private String checksName;

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
            final FlowNode node = ctx.get(FlowNode.class);
            final String problem = CallFolders.idProblem(step.id);
            if (problem != null) {
                throw new AbortException("aiperfAggregate: id: " + problem);
            }
            final String id = InvocationPlanner.callId(step.id);
            final CallFolders folders = CallFolders.aggregate(id);
            try (EngineRun engine = new EngineRun(run, ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                engine.claim(folders, EngineRun.caller("aiperfAggregate", node));
                engine.checks(step.checksName, step.skipPublishingChecks);
                final FilePath cells = engine.scratch().child("cells");
                if (ArchivedFiles.copy(run, CallFolders.cellsPrefix(id), "**/*", cells) == 0) {
                    throw new AbortException("aiperfAggregate: this build archived no cells under id '" + id
                            + "'; run aiperfProfile(id: '" + id + "', cells: [...]) with archive: true first");
                }
                final List<String> baselines = engine.baselines(folders.prefix(), step.gate, step.baseline,
                        step.referenceJob);
                final EngineInvocation invocation;
                try {
                    invocation = InvocationPlanner.aggregate(engine.engineCommand(step.jdk, "aggregate"),
                            List.of(cells.getRemote()), step.artifactDir, id, step.gate, baselines);
                } catch (IllegalArgumentException e) {
                    throw new AbortException("aiperfAggregate: " + e.getMessage());
                }
                engine.freshFolder(invocation.exportDir());
                return engine.execute(invocation, folders, step.archive, step.unstableOnWarnings, null,
                        new PipelineResultHandler(run, node));
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

        /** Fields it shares with {@code aiperfProfile} share their help page. */
        @Override
        public String getHelpFile(final String fieldName) {
            final String own = super.getHelpFile(fieldName);
            return own != null ? own : Help.shared(fieldName);
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class, FlowNode.class);
        }
    }

    public String getId() {
        return id;
    }

    @DataBoundSetter
    public void setId(final String id) {
        this.id = Blanks.toNull(id);
    }

    public String getArtifactDir() {
        return artifactDir;
    }

    @DataBoundSetter
    public void setArtifactDir(final String artifactDir) {
        this.artifactDir = ProfileSettings.dir(artifactDir);
    }

    public String getJdk() {
        return jdk;
    }

    @DataBoundSetter
    public void setJdk(final String jdk) {
        this.jdk = Blanks.toNull(jdk);
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

    public String getChecksName() {
        return this.checksName;
    }

    @DataBoundSetter
    public void setChecksName(final String checksName) {
        this.checksName = Blanks.toNull(checksName);
    }

    public boolean isSkipPublishingChecks() {
        return this.skipPublishingChecks;
    }

    @DataBoundSetter
    public void setSkipPublishingChecks(final boolean skipPublishingChecks) {
        this.skipPublishingChecks = skipPublishingChecks;
    }

    public String getReferenceJob() {
        return this.referenceJob;
    }

    @DataBoundSetter
    public void setReferenceJob(final String referenceJob) {
        this.referenceJob = Blanks.toNull(referenceJob);
    }
}
