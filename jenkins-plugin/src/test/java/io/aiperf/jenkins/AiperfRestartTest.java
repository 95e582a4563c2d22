package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.Result;
import hudson.slaves.DumbSlave;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

/** The build action survives a restart (JEP-200: only JDK types persisted) and its pages still render. */
class AiperfRestartTest {
    @RegisterExtension
    final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @Test
    void summaryAndTrendSurviveARestart() throws Throwable {
        sessions.then(j -> {
            final DumbSlave agent = j.createOnlineSlave();
            try (MockServerProcess mock = MockServerProcess.start(5)) {
                final WorkflowJob p = j.createProject(WorkflowJob.class, "p");
                p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') { aiperfProfile(model: 'm', "
                        + "urls: ['" + mock.url() + "'], streaming: true, requestCount: '6', extraArgs: ['--osl', '2']) }",
                        true));
                j.buildAndAssertSuccess(p);
                j.buildAndAssertSuccess(p);
            }
        });
        sessions.then(j -> {
            final WorkflowJob p = j.jenkins.getItemByFullName("p", WorkflowJob.class);
            final WorkflowRun r = p.getBuildByNumber(2);
            final AiperfBuildAction action = r.getAction(AiperfBuildAction.class);
            assertNotNull(action);
            assertSame(r, action.getRun());
            assertEquals(Result.SUCCESS, r.getResult());
            assertTrue(action.getCalls().containsKey("aiperf/run/"));
            j.createWebClient().getPage(r, "aiperf/");
            final String svg = j.createWebClient().goTo(p.getUrl() + "aiperf-trend/trend", "image/svg+xml")
                    .getWebResponse().getContentAsString();
            assertTrue(svg.contains("class=\"series\""), svg);
        });
    }
}
