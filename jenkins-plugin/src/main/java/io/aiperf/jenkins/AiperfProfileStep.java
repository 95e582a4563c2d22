package io.aiperf.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Item;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.ListBoxModel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.AncestorInPath;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * {@code aiperfProfile(...)}: runs the engine on the agent and returns its summary as a Map. Its settings are
 * {@link ProfileSettings}', shared with the freestyle builder.
 */
public final class AiperfProfileStep extends Step {
    private final ProfileSettings settings = new ProfileSettings();

    @DataBoundConstructor
    public AiperfProfileStep() {
        // every setting is optional; ProfileSpec.validate() says what a run needs
    }

    ProfileSettings settings() {
        return settings;
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(settings, context);
    }

    /** Runs on a thread of its own; an abort interrupts it (see {@link EngineStepExecution}). */
    static final class Execution extends EngineStepExecution<Map<String, Object>> {
        private static final long serialVersionUID = 1L;
        private final ProfileSettings settings;

        Execution(final ProfileSettings settings, final StepContext context) {
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
                return ProfileCall.run(settings, engine, new PipelineResultHandler(run, node),
                        EngineRun.caller("aiperfProfile", node));
            }
        }
    }

    @Extension
    @Symbol("aiperfProfile")
    public static final class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return "aiperfProfile";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Benchmark an LLM inference server with AIPerf";
        }

        /** Its fields are the builder's, and share their help pages. */
        @Override
        public String getHelpFile(final String fieldName) {
            final String own = super.getHelpFile(fieldName);
            return own != null ? own : Help.shared(fieldName);
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, FilePath.class, Launcher.class, TaskListener.class, EnvVars.class, FlowNode.class);
        }

        /** The snippet generator's form: list fields are one line of words, blank booleans stay unset. */
        @Override
        public Step newInstance(final StaplerRequest2 req, @NonNull final JSONObject formData) throws FormException {
            return super.newInstance(req, SettingsForm.normalize(formData));
        }

        /** A list setting as the form shows it. */
        public String line(final List<String> words) {
            return words == null ? "" : SettingsForm.line(words);
        }

        @POST
        public ListBoxModel doFillCredentialsIdItems(@AncestorInPath final Item item,
                                                     @QueryParameter final String credentialsId) {
            return FormChecks.credentials(item, credentialsId);
        }
    }

    public String getId() {
        return settings.id;
    }

    @DataBoundSetter
    public void setId(final String id) {
        settings.id = Blanks.toNull(id);
    }

    public String getConfig() {
        return settings.config;
    }

    @DataBoundSetter
    public void setConfig(final String config) {
        settings.config = Blanks.toNull(config);
    }

    public String getModel() {
        return settings.model;
    }

    @DataBoundSetter
    public void setModel(final String model) {
        settings.model = Blanks.toNull(model);
    }

    public List<String> getUrls() {
        return settings.urls;
    }

    @DataBoundSetter
    public void setUrls(final List<String> urls) {
        settings.urls = ProfileSettings.list(urls);
    }

    public String getEndpointType() {
        return settings.endpointType;
    }

    @DataBoundSetter
    public void setEndpointType(final String endpointType) {
        settings.endpointType = Blanks.toNull(endpointType);
    }

    public Boolean getStreaming() {
        return settings.streaming;
    }

    @DataBoundSetter
    public void setStreaming(final Boolean streaming) {
        settings.streaming = streaming;
    }

    public Integer getConcurrency() {
        return settings.concurrency;
    }

    @DataBoundSetter
    public void setConcurrency(final Integer concurrency) {
        settings.concurrency = concurrency;
    }

    public Double getRequestRate() {
        return settings.requestRate;
    }

    @DataBoundSetter
    public void setRequestRate(final Double requestRate) {
        settings.requestRate = requestRate;
    }

    public Integer getRequestCount() {
        return settings.requestCount;
    }

    @DataBoundSetter
    public void setRequestCount(final Integer requestCount) {
        settings.requestCount = requestCount;
    }

    public Double getBenchmarkDuration() {
        return settings.benchmarkDuration;
    }

    @DataBoundSetter
    public void setBenchmarkDuration(final Double benchmarkDuration) {
        settings.benchmarkDuration = benchmarkDuration;
    }

    public Integer getWarmupRequestCount() {
        return settings.warmupRequestCount;
    }

    @DataBoundSetter
    public void setWarmupRequestCount(final Integer warmupRequestCount) {
        settings.warmupRequestCount = warmupRequestCount;
    }

    public Integer getNumProfileRuns() {
        return settings.numProfileRuns;
    }

    @DataBoundSetter
    public void setNumProfileRuns(final Integer numProfileRuns) {
        settings.numProfileRuns = numProfileRuns;
    }

    public Boolean getResetKvCache() {
        return settings.resetKvCache;
    }

    @DataBoundSetter
    public void setResetKvCache(final Boolean resetKvCache) {
        settings.resetKvCache = resetKvCache;
    }

    public Boolean getServerProfiler() {
        return settings.serverProfiler;
    }

    @DataBoundSetter
    public void setServerProfiler(final Boolean serverProfiler) {
        settings.serverProfiler = serverProfiler;
    }

    public String getCredentialsId() {
        return settings.credentialsId;
    }

    @DataBoundSetter
    public void setCredentialsId(final String credentialsId) {
        settings.credentialsId = Blanks.toNull(credentialsId);
    }

    public String getArtifactDir() {
        return settings.artifactDir;
    }

    @DataBoundSetter
    public void setArtifactDir(final String artifactDir) {
        settings.artifactDir = ProfileSettings.dir(artifactDir);
    }

    public boolean isArchive() {
        return settings.archive;
    }

    @DataBoundSetter
    public void setArchive(final boolean archive) {
        settings.archive = archive;
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

    public boolean isUnstableOnWarnings() {
        return settings.unstableOnWarnings;
    }

    @DataBoundSetter
    public void setUnstableOnWarnings(final boolean unstableOnWarnings) {
        settings.unstableOnWarnings = unstableOnWarnings;
    }

    public List<String> getExtraArgs() {
        return settings.extraArgs;
    }

    @DataBoundSetter
    public void setExtraArgs(final List<String> extraArgs) {
        settings.extraArgs = ProfileSettings.list(extraArgs);
    }

    public List<String> getCells() {
        return settings.cells;
    }

    @DataBoundSetter
    public void setCells(final List<String> cells) {
        settings.cells = ProfileSettings.list(cells);
    }

    public String getCompareWith() {
        return settings.compareWith;
    }

    @DataBoundSetter
    public void setCompareWith(final String compareWith) {
        settings.compareWith = Blanks.toNull(compareWith);
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
