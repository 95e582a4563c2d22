package io.aiperf.jenkins;

import hudson.model.Run;
import hudson.model.TaskListener;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import io.jenkins.plugins.checks.api.ChecksConclusion;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksOutput;
import io.jenkins.plugins.checks.api.ChecksPublisherFactory;
import io.jenkins.plugins.checks.api.ChecksStatus;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;

/**
 * Publishes a call's verdict as a check (for example on the pull request of a GitHub or GitLab build) through the
 * optional checks-api plugin. Only this class refers to that plugin; {@link #publish} loads it only when the plugin
 * is installed, so the plugin works without it.
 */
final class ChecksPublishing {
    private static final String FACTORY = "io.jenkins.plugins.checks.api.ChecksPublisherFactory";

    private ChecksPublishing() {
    }

    /**
     * Publishes the check when checks-api is installed; never fails the build.
     *
     * @param prefix the call's archive folder, which anchors its entry on the build's AIPerf page
     * @param name the check's name, or null for {@code AIPerf <id>}
     */
    static void publish(final Run<?, ?> run, final TaskListener listener, final Map<String, Object> summary,
                        final String prefix, final String name) {
        try {
            Class.forName(FACTORY, false, ChecksPublishing.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError absent) {
            return; // checks-api is not installed
        }
        try {
            Checks.publish(run, listener, summary, name == null ? "AIPerf " + summary.get(StepSummary.ID) : name,
                    detailsUrl(run, prefix));
        } catch (RuntimeException | LinkageError e) {
            listener.getLogger().println("aiperf: the verdict could not be published as a check: " + e);
        }
    }

    /**
     * The call's entry on the build's AIPerf page, or null while Jenkins' URL is not configured (a check needs an
     * absolute link).
     */
    static String detailsUrl(final Run<?, ?> run, final String prefix) {
        final String root = Jenkins.get().getRootUrl();
        return root == null ? null : root + run.getUrl() + "aiperf/#" + prefix;
    }

    /** Separate, so that its references to checks-api resolve only once the plugin is known to be there. */
    private static final class Checks {
        static void publish(final Run<?, ?> run, final TaskListener listener, final Map<String, Object> summary,
                            final String name, final String page) {
            final Verdict verdict = Verdict.of(summary.get(StepSummary.VERDICT));
            final List<?> reasons = summary.get(StepSummary.REASONS) instanceof List<?> l ? l : List.of();
            final ChecksOutput output = new ChecksOutput.ChecksOutputBuilder()
                    .withTitle("AIPerf " + summary.get(StepSummary.ID) + ": " + verdict + ", gate "
                            + summary.get(StepSummary.GATE))
                    .withSummary(reasons.isEmpty() ? "No regression." : String.join("\n", reasons.stream()
                            .map(String::valueOf).toList()))
                    .build();
            final ChecksDetails.ChecksDetailsBuilder details = new ChecksDetails.ChecksDetailsBuilder()
                    .withName(name)
                    .withStatus(ChecksStatus.COMPLETED)
                    .withConclusion(switch (verdict) {
                        case SUCCESS -> ChecksConclusion.SUCCESS;
                        case UNSTABLE -> ChecksConclusion.NEUTRAL;
                        case ABORTED -> ChecksConclusion.CANCELED;
                        case FAILURE -> ChecksConclusion.FAILURE;
                    })
                    .withOutput(output);
            if (page != null) {
                details.withDetailsURL(page);
            }
            ChecksPublisherFactory.fromRun(run, listener).publish(details.build());
        }
    }
}
