package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.Extension;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.slaves.DumbSlave;
import io.jenkins.plugins.checks.api.ChecksConclusion;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksPublisher;
import io.jenkins.plugins.checks.api.ChecksPublisherFactory;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** Each call's verdict as a check (checks-api): its name, a way to publish none, and a link to the call's entry. */
@WithJenkins
class AiperfChecksTest {
    private static final List<ChecksDetails> PUBLISHED = new CopyOnWriteArrayList<>();

    /** A checks publisher that keeps what it is given (as GitHub's would send it). */
    @Extension
    public static final class Capturing extends ChecksPublisherFactory {
        @Override
        protected Optional<ChecksPublisher> createPublisher(final Run<?, ?> run, final TaskListener listener) {
            return Optional.of(new Keeper());
        }
    }

    private static final class Keeper extends ChecksPublisher {
        @Override
        public void publish(final ChecksDetails details) {
            PUBLISHED.add(details);
        }
    }

    @Test
    void eachCallPublishesANamedCheckLinkingToItsEntryUnlessSkipped(final JenkinsRule j) throws Exception {
        PUBLISHED.clear();
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String call = "aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], streaming: true, requestCount: 6,"
                    + " extraArgs: ['--isl', '8', '--osl', '2'], ";
            final WorkflowJob p = j.createProject(WorkflowJob.class, "checks");
            p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') {\n"
                    + "  " + call + "id: 'a')\n"
                    + "  " + call + "id: 'b', checksName: 'latency gate')\n"
                    + "  " + call + "id: 'c', skipPublishingChecks: true)\n"
                    + "}", true));
            final WorkflowRun r = j.buildAndAssertStatus(Result.SUCCESS, p);
            assertEquals(List.of("AIPerf a", "latency gate"), PUBLISHED.stream().map(d -> d.getName().orElse("?"))
                    .toList());
            assertEquals(ChecksConclusion.SUCCESS, PUBLISHED.get(0).getConclusion());
            final String link = PUBLISHED.get(0).getDetailsURL().orElse("");
            assertEquals(j.getURL() + r.getUrl() + "aiperf/#aiperf/a/run/", link);
            // the anchor exists on the page it links to
            final String page = j.createWebClient().getPage(r, "aiperf/").getWebResponse().getContentAsString();
            assertTrue(page.contains("id=\"aiperf/a/run/\""), page);
        }
    }
}
