package io.aiperf.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.AbstractProject;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.tasks.BuildStepDescriptor;
import hudson.tasks.BuildStepMonitor;
import hudson.tasks.Publisher;
import hudson.tasks.Recorder;
import java.io.IOException;
import jenkins.tasks.SimpleBuildStep;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;

/**
 * The freestyle post-build action "Gate and record AIPerf results": the same {@link GateSettings} as
 * {@code aiperfGate}, run by the same code, for exports an earlier build step produced.
 */
public final class AiperfGateRecorder extends Recorder implements SimpleBuildStep {
    private final GateSettings settings = new GateSettings();

    @DataBoundConstructor
    public AiperfGateRecorder() {
        // results is checked when the action runs, with the other settings
    }

    @Override
    public void perform(@NonNull final Run<?, ?> run, @NonNull final FilePath workspace, @NonNull final EnvVars env,
                        @NonNull final Launcher launcher, @NonNull final TaskListener listener)
            throws InterruptedException, IOException {
        try (EngineRun engine = new EngineRun(run, workspace, env, launcher, listener)) {
            GateCall.run(settings, engine, new RunResultHandler(run),
                    EngineRun.caller("the freestyle AIPerf gate", null));
        }
    }

    @Override
    public BuildStepMonitor getRequiredMonitorService() {
        return BuildStepMonitor.NONE;
    }

    @Extension
    @Symbol("aiperfGate")
    public static final class DescriptorImpl extends BuildStepDescriptor<Publisher> {
        @Override
        public boolean isApplicable(final Class<? extends AbstractProject> jobType) {
            return true;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Gate and record AIPerf results";
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
