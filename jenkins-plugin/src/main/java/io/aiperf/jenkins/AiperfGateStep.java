package io.aiperf.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
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
 * {@code aiperfGate(results: 'artifacts/run', gate: 'gate.yaml')}: gates and records exports produced elsewhere,
 * with the same result mapping, archive, build page and trend as {@code aiperfProfile}; returns the same summary.
 * Its settings are {@link GateSettings}', shared with the freestyle post-build action.
 */
public final class AiperfGateStep extends Step {
    private final GateSettings settings = new GateSettings();

    @DataBoundConstructor
    public AiperfGateStep() {
        // results is checked when the step runs, with the other settings
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(settings, context);
    }

    static final class Execution extends EngineStepExecution<Map<String, Object>> {
        private static final long serialVersionUID = 1L;
        private final GateSettings settings;

        Execution(final GateSettings settings, final StepContext context) {
            super(context);
            this.settings = settings;
        }

        @Override
        protected Map<String, Object> work() throws Exception {
            final StepContext ctx = getContext();
            final Run<?, ?> run = ctx.get(Run.class);
            final FlowNode node = ctx.get(FlowNode.class);
            try (EngineRun engine = new EngineRun(run, ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                return GateCall.run(settings, engine, new PipelineResultHandler(run, node),
                        EngineRun.caller("aiperfGate", node));
            }
        }
    }

    @Extension
    @Symbol("aiperfGate")
    public static final class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return "aiperfGate";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Gate and record AIPerf results produced elsewhere";
        }

        /** Its fields are the post-build action's, and share their help pages. */
        @Override
        public String getHelpFile(final String fieldName) {
            final String own = super.getHelpFile(fieldName);
            return own != null ? own : Help.of(AiperfGateRecorder.class, fieldName);
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class, FlowNode.class);
        }
    }

    public String getId() {
        return settings.id;
    }

    @DataBoundSetter
    public void setId(final String id) {
        settings.id = Blanks.toNull(id);
    }

    public String getResults() {
        return settings.results;
    }

    @DataBoundSetter
    public void setResults(final String results) {
        settings.results = Blanks.toNull(results);
    }

    public String getGate() {
        return settings.gate;
    }

    @DataBoundSetter
    public void setGate(final String gate) {
        settings.gate = Blanks.toNull(gate);
    }

    public String getBaseline() {
        return settings.baseline;
    }

    @DataBoundSetter
    public void setBaseline(final String baseline) {
        settings.baseline = Blanks.toNull(baseline);
    }

    public boolean isArchive() {
        return settings.archive;
    }

    @DataBoundSetter
    public void setArchive(final boolean archive) {
        settings.archive = archive;
    }

    public boolean isUnstableOnWarnings() {
        return settings.unstableOnWarnings;
    }

    @DataBoundSetter
    public void setUnstableOnWarnings(final boolean unstableOnWarnings) {
        settings.unstableOnWarnings = unstableOnWarnings;
    }

    public String getJdk() {
        return settings.jdk;
    }

    @DataBoundSetter
    public void setJdk(final String jdk) {
        settings.jdk = Blanks.toNull(jdk);
    }

    public String getChecksName() {
        return settings.checksName;
    }

    @DataBoundSetter
    public void setChecksName(final String checksName) {
        settings.checksName = Blanks.toNull(checksName);
    }

    public boolean isSkipPublishingChecks() {
        return settings.skipPublishingChecks;
    }

    @DataBoundSetter
    public void setSkipPublishingChecks(final boolean skipPublishingChecks) {
        settings.skipPublishingChecks = skipPublishingChecks;
    }

    public String getReferenceJob() {
        return settings.referenceJob;
    }

    @DataBoundSetter
    public void setReferenceJob(final String referenceJob) {
        settings.referenceJob = Blanks.toNull(referenceJob);
    }
}
