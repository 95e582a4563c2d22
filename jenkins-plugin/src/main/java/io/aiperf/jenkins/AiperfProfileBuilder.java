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
import java.io.IOException;
import java.util.List;
import jenkins.tasks.SimpleBuildStep;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.AncestorInPath;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * The freestyle build step "Benchmark an LLM inference server with AIPerf": the same {@link ProfileSettings} as
 * {@code aiperfProfile}, run by the same code. In its form, list fields are one line of words and the engine's
 * booleans are a choice of "from the config file" (the default), on and off.
 */
public final class AiperfProfileBuilder extends Builder implements SimpleBuildStep {
    private final ProfileSettings settings = new ProfileSettings();

    @DataBoundConstructor
    public AiperfProfileBuilder() {
        // every setting is optional; ProfileSpec.validate() says what a run needs
    }

    @Override
    public void perform(@NonNull final Run<?, ?> run, @NonNull final FilePath workspace, @NonNull final EnvVars env,
                        @NonNull final Launcher launcher, @NonNull final TaskListener listener)
            throws InterruptedException, IOException {
        try (EngineRun engine = new EngineRun(run, workspace, env, launcher, listener)) {
            ProfileCall.run(settings, engine, new RunResultHandler(run),
                    EngineRun.caller("the freestyle AIPerf build step", null));
        }
    }

    @Override
    public BuildStepMonitor getRequiredMonitorService() {
        return BuildStepMonitor.NONE;
    }

    @Extension
    @Symbol("aiperfProfile")
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

        /** The form's list fields are one line of words; a blank boolean choice stays unset. */
        @Override
        public Builder newInstance(final StaplerRequest2 req, @NonNull final JSONObject formData) throws FormException {
            return super.newInstance(req, SettingsForm.normalize(formData));
        }

        /** A list setting as the form shows it. */
        public String line(final List<String> words) {
            return words == null ? "" : SettingsForm.line(words);
        }

        @POST
        public FormValidation doCheckId(@AncestorInPath final Item item, @QueryParameter final String id) {
            return FormChecks.check(item, "id", FormChecks.form("id", id));
        }

        @POST
        public FormValidation doCheckModel(@AncestorInPath final Item item, @QueryParameter final String model,
                                           @QueryParameter final String config) {
            return FormChecks.check(item, "model", FormChecks.form("model", model, "config", config));
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
