package io.aiperf.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.AbstractProject;
import hudson.model.Item;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.tasks.BuildStepDescriptor;
import hudson.tasks.BuildStepMonitor;
import hudson.tasks.Builder;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.aiperf.engine.ci.ProfileSpec;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import jenkins.tasks.SimpleBuildStep;
import org.kohsuke.stapler.AncestorInPath;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.verb.POST;

/**
 * The freestyle build step "Benchmark an LLM inference server with AIPerf": the same settings as
 * {@code aiperfProfile}, as form text (lists are whitespace separated), run by the same code.
 */
public final class AiperfProfileBuilder extends Builder implements SimpleBuildStep {
    private String config;
    private String model;
    private String urls;
    private String endpointType;
    private Boolean streaming;
    private String concurrency;
    private String requestRate;
    private String requestCount;
    private String benchmarkDuration;
    private String warmupRequestCount;
    private String numProfileRuns;
    private Boolean resetKvCache;
    private Boolean serverProfiler;
    private String credentialsId;
    private String artifactDir = ProfileSpec.DEFAULT_ARTIFACT_DIR;
    private boolean archive = true;
    private String gate;
    private String baseline;
    private boolean unstableOnWarnings;
    private String extraArgs;
    private String cells;
    private String compareWith;

    @DataBoundConstructor
    public AiperfProfileBuilder() {
        // every setting is optional; ProfileSpec.validate() says what a run needs
    }

    /** The form's text, keyed by field name. */
    Map<String, String> form() {
        final Map<String, String> form = new HashMap<>();
        form.put("config", config);
        form.put("model", model);
        form.put("urls", urls);
        form.put("endpointType", endpointType);
        form.put("streaming", str(streaming));
        form.put("concurrency", concurrency);
        form.put("requestRate", requestRate);
        form.put("requestCount", requestCount);
        form.put("benchmarkDuration", benchmarkDuration);
        form.put("warmupRequestCount", warmupRequestCount);
        form.put("numProfileRuns", numProfileRuns);
        form.put("resetKvCache", str(resetKvCache));
        form.put("serverProfiler", str(serverProfiler));
        form.put("credentialsId", credentialsId);
        form.put("artifactDir", artifactDir);
        form.put("archive", String.valueOf(archive));
        form.put("gate", gate);
        form.put("baseline", baseline);
        form.put("unstableOnWarnings", String.valueOf(unstableOnWarnings));
        form.put("extraArgs", extraArgs);
        form.put("cells", cells);
        form.put("compareWith", compareWith);
        return form;
    }

    private static String str(final Boolean b) {
        return b == null ? null : b.toString();
    }

    @Override
    public void perform(@NonNull final Run<?, ?> run, @NonNull final FilePath workspace, @NonNull final EnvVars env,
                        @NonNull final Launcher launcher, @NonNull final TaskListener listener)
            throws InterruptedException, IOException {
        final ProfileSpec spec;
        try {
            spec = ProfileSpec.fromForm(form());
        } catch (IllegalArgumentException e) {
            throw new hudson.AbortException("aiperf: " + e.getMessage());
        }
        try (EngineRun engine = new EngineRun(run, workspace, env, launcher, listener)) {
            ProfileCall.run(spec, engine, new RunResultHandler(run));
        }
    }

    @Override
    public BuildStepMonitor getRequiredMonitorService() {
        return BuildStepMonitor.NONE;
    }

    @Extension
    public static final class DescriptorImpl extends BuildStepDescriptor<Builder> {
        @Override
        public boolean isApplicable(final Class<? extends AbstractProject> jobType) {
            return true;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Benchmark an LLM inference server with AIPerf";
        }

        @POST
        public FormValidation doCheckModel(@AncestorInPath final Item item, @QueryParameter final String model,
                                           @QueryParameter final String config) {
            return FormChecks.check(item, "model", FormChecks.form("model", model, "config", config));
        }

        @POST
        public FormValidation doCheckUrls(@AncestorInPath final Item item, @QueryParameter final String urls,
                                          @QueryParameter final String config) {
            return FormChecks.check(item, "urls", FormChecks.form("urls", urls, "config", config));
        }

        @POST
        public FormValidation doCheckWarmupRequestCount(@AncestorInPath final Item item,
                                                        @QueryParameter final String warmupRequestCount) {
            return FormChecks.check(item, "warmupRequestCount", FormChecks.form("warmupRequestCount", warmupRequestCount));
        }

        @POST
        public FormValidation doCheckNumProfileRuns(@AncestorInPath final Item item,
                                                    @QueryParameter final String numProfileRuns) {
            return FormChecks.check(item, "numProfileRuns", FormChecks.form("numProfileRuns", numProfileRuns));
        }

        @POST
        public FormValidation doCheckArtifactDir(@AncestorInPath final Item item,
                                                 @QueryParameter final String artifactDir) {
            return FormChecks.check(item, "artifactDir", FormChecks.form("artifactDir", artifactDir));
        }

        @POST
        public FormValidation doCheckBaseline(@AncestorInPath final Item item, @QueryParameter final String baseline,
                                              @QueryParameter final String gate) {
            return FormChecks.check(item, "baseline", FormChecks.form("baseline", baseline, "gate", gate));
        }

        @POST
        public FormValidation doCheckExtraArgs(@AncestorInPath final Item item,
                                               @QueryParameter final String extraArgs) {
            return FormChecks.check(item, "extraArgs", FormChecks.form("extraArgs", extraArgs));
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

    public String getUrls() {
        return urls;
    }

    @DataBoundSetter
    public void setUrls(final String urls) {
        this.urls = Blanks.toNull(urls);
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

    public String getWarmupRequestCount() {
        return warmupRequestCount;
    }

    @DataBoundSetter
    public void setWarmupRequestCount(final String warmupRequestCount) {
        this.warmupRequestCount = Blanks.toNull(warmupRequestCount);
    }

    public String getNumProfileRuns() {
        return numProfileRuns;
    }

    @DataBoundSetter
    public void setNumProfileRuns(final String numProfileRuns) {
        this.numProfileRuns = Blanks.toNull(numProfileRuns);
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

    public String getExtraArgs() {
        return extraArgs;
    }

    @DataBoundSetter
    public void setExtraArgs(final String extraArgs) {
        this.extraArgs = Blanks.toNull(extraArgs);
    }

    public String getCells() {
        return cells;
    }

    @DataBoundSetter
    public void setCells(final String cells) {
        this.cells = Blanks.toNull(cells);
    }

    public String getCompareWith() {
        return compareWith;
    }

    @DataBoundSetter
    public void setCompareWith(final String compareWith) {
        this.compareWith = Blanks.toNull(compareWith);
    }
}
