package io.aiperf.jenkins;

import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Item;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.ListBoxModel;
import io.aiperf.engine.ci.ProfileSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.kohsuke.stapler.verb.POST;

/**
 * {@code aiperfProfile(...)}: runs the engine on the agent and returns its summary as a Map. One field per
 * {@link ProfileSpec} component, with the same name (an engine test keeps them in step).
 */
public final class AiperfProfileStep extends Step {
    private String config;
    private String model;
    private List<String> urls = new ArrayList<>();
    private String endpointType;
    private Boolean streaming;
    private String concurrency;
    private String requestRate;
    private String requestCount;
    private String benchmarkDuration;
    private Integer warmupRequestCount;
    private Integer numProfileRuns;
    private Boolean resetKvCache;
    private Boolean serverProfiler;
    private String credentialsId;
    private String artifactDir = ProfileSpec.DEFAULT_ARTIFACT_DIR;
    private boolean archive = true;
    private String gate;
    private String baseline;
    private boolean unstableOnWarnings;
    private List<String> extraArgs = new ArrayList<>();
    private List<String> cells = new ArrayList<>();
    private String compareWith;

    @DataBoundConstructor
    public AiperfProfileStep() {
        // every setting is optional; ProfileSpec.validate() says what a run needs
    }

    /** The engine's view of this step. */
    ProfileSpec toSpec() {
        return new ProfileSpec(config, model, List.copyOf(urls), endpointType, streaming, concurrency, requestRate,
                requestCount, benchmarkDuration, warmupRequestCount, numProfileRuns, resetKvCache, serverProfiler,
                credentialsId, artifactDir, archive, gate, baseline, unstableOnWarnings, List.copyOf(extraArgs),
                List.copyOf(cells), compareWith);
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(this, context);
    }

    /** Runs on a thread of its own; an abort interrupts it and the engine is stopped with SIGTERM. */
    static final class Execution extends EngineStepExecution<Map<String, Object>> {
        private static final long serialVersionUID = 1L;
        private final transient AiperfProfileStep step;

        Execution(final AiperfProfileStep step, final StepContext context) {
            super(context);
            this.step = step;
        }

        @Override
        protected Map<String, Object> work() throws Exception {
            final StepContext ctx = getContext();
            final Run<?, ?> run = ctx.get(Run.class);
            try (EngineRun engine = new EngineRun(run, ctx.get(FilePath.class), ctx.get(EnvVars.class),
                    ctx.get(Launcher.class), ctx.get(TaskListener.class))) {
                return ProfileCall.run(step.toSpec(), engine, new PipelineResultHandler(run, ctx.get(FlowNode.class)));
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

        @Override
        public String getDisplayName() {
            return "Benchmark an LLM inference server with AIPerf";
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

        @POST
        public ListBoxModel doFillCredentialsIdItems(@AncestorInPath final Item item,
                                                     @QueryParameter final String credentialsId) {
            return FormChecks.credentials(item, credentialsId);
        }
    }

    public String getConfig() {
        return config;
    }

    @DataBoundSetter
    public void setConfig(final String config) {
        this.config = Blanks.toNull(config);
    }

    public String getModel() {
        return model;
    }

    @DataBoundSetter
    public void setModel(final String model) {
        this.model = Blanks.toNull(model);
    }

    public List<String> getUrls() {
        return urls;
    }

    @DataBoundSetter
    public void setUrls(final List<String> urls) {
        this.urls = urls == null ? new ArrayList<>() : new ArrayList<>(urls);
    }

    public String getEndpointType() {
        return endpointType;
    }

    @DataBoundSetter
    public void setEndpointType(final String endpointType) {
        this.endpointType = Blanks.toNull(endpointType);
    }

    public Boolean getStreaming() {
        return streaming;
    }

    @DataBoundSetter
    public void setStreaming(final Boolean streaming) {
        this.streaming = streaming;
    }

    public String getConcurrency() {
        return concurrency;
    }

    @DataBoundSetter
    public void setConcurrency(final String concurrency) {
        this.concurrency = Blanks.toNull(concurrency);
    }

    public String getRequestRate() {
        return requestRate;
    }

    @DataBoundSetter
    public void setRequestRate(final String requestRate) {
        this.requestRate = Blanks.toNull(requestRate);
    }

    public String getRequestCount() {
        return requestCount;
    }

    @DataBoundSetter
    public void setRequestCount(final String requestCount) {
        this.requestCount = Blanks.toNull(requestCount);
    }

    public String getBenchmarkDuration() {
        return benchmarkDuration;
    }

    @DataBoundSetter
    public void setBenchmarkDuration(final String benchmarkDuration) {
        this.benchmarkDuration = Blanks.toNull(benchmarkDuration);
    }

    public Integer getWarmupRequestCount() {
        return warmupRequestCount;
    }

    @DataBoundSetter
    public void setWarmupRequestCount(final Integer warmupRequestCount) {
        this.warmupRequestCount = warmupRequestCount;
    }

    public Integer getNumProfileRuns() {
        return numProfileRuns;
    }

    @DataBoundSetter
    public void setNumProfileRuns(final Integer numProfileRuns) {
        this.numProfileRuns = numProfileRuns;
    }

    public Boolean getResetKvCache() {
        return resetKvCache;
    }

    @DataBoundSetter
    public void setResetKvCache(final Boolean resetKvCache) {
        this.resetKvCache = resetKvCache;
    }

    public Boolean getServerProfiler() {
        return serverProfiler;
    }

    @DataBoundSetter
    public void setServerProfiler(final Boolean serverProfiler) {
        this.serverProfiler = serverProfiler;
    }

    public String getCredentialsId() {
        return credentialsId;
    }

    @DataBoundSetter
    public void setCredentialsId(final String credentialsId) {
        this.credentialsId = Blanks.toNull(credentialsId);
    }

    public String getArtifactDir() {
        return artifactDir;
    }

    @DataBoundSetter
    public void setArtifactDir(final String artifactDir) {
        this.artifactDir = Blanks.toNull(artifactDir) == null ? ProfileSpec.DEFAULT_ARTIFACT_DIR : artifactDir.trim();
    }

    public boolean isArchive() {
        return archive;
    }

    @DataBoundSetter
    public void setArchive(final boolean archive) {
        this.archive = archive;
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

    public boolean isUnstableOnWarnings() {
        return unstableOnWarnings;
    }

    @DataBoundSetter
    public void setUnstableOnWarnings(final boolean unstableOnWarnings) {
        this.unstableOnWarnings = unstableOnWarnings;
    }

    public List<String> getExtraArgs() {
        return extraArgs;
    }

    @DataBoundSetter
    public void setExtraArgs(final List<String> extraArgs) {
        this.extraArgs = extraArgs == null ? new ArrayList<>() : new ArrayList<>(extraArgs);
    }

    public List<String> getCells() {
        return cells;
    }

    @DataBoundSetter
    public void setCells(final List<String> cells) {
        this.cells = cells == null ? new ArrayList<>() : new ArrayList<>(cells);
    }

    public String getCompareWith() {
        return compareWith;
    }

    @DataBoundSetter
    public void setCompareWith(final String compareWith) {
        this.compareWith = Blanks.toNull(compareWith);
    }
}
