package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

/**
 * Restarts: the build action and the freestyle settings survive (JEP-200: only JDK and plugin types persisted)
 * and the pages still render; a restart during a benchmark fails it and leaves no engine running.
 */
class AiperfRestartTest {
    @RegisterExtension
    final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @Test
    void summaryTrendAndFreestyleSettingsSurviveARestart() throws Throwable {
        final String[] before = new String[2];
        sessions.then(j -> {
            final DumbSlave agent = Agents.withJava(j);
            try (MockServerProcess mock = MockServerProcess.start(5)) {
                final WorkflowJob p = j.createProject(WorkflowJob.class, "p");
                p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') { aiperfProfile(model: 'm', "
                        + "urls: ['" + mock.url() + "'], streaming: true, requestCount: 6, extraArgs: ['--osl', '2']) }",
                        true));
                j.buildAndAssertSuccess(p);
                j.buildAndAssertSuccess(p);
                p.save();
                before[0] = Agents.configXml(p);
                assertTrue(before[0].contains("aiperfProfile"), before[0]);
            }
            final FreeStyleProject f = j.createFreeStyleProject("f");
            final AiperfProfileBuilder b = new AiperfProfileBuilder();
            b.setId("llama");
            b.setConfig("bench.yaml");
            b.setUrls(List.of("http://127.0.0.1:1"));
            b.setStreaming(false);
            b.setWarmupRequestCount(4);
            b.setExtraArgs(List.of("--extra-inputs", "a b"));
            f.getBuildersList().add(b);
            f.save();
            before[1] = Agents.configXml(f);
            assertTrue(before[1].contains("<settings>") && before[1].contains("llama"), before[1]);
        });
        sessions.then(j -> {
            final WorkflowJob p = j.jenkins.getItemByFullName("p", WorkflowJob.class);
            final WorkflowRun r = p.getBuildByNumber(2);
            final AiperfBuildAction action = r.getAction(AiperfBuildAction.class);
            assertNotNull(action);
            assertSame(r, action.getRun());
            assertEquals(Result.SUCCESS, r.getResult());
            assertTrue(action.getCalls().containsKey("aiperf/aiperf/run/"));
            assertEquals(before[0], Agents.configXml(p));
            j.createWebClient().getPage(r, "aiperf/");
            final String svg = j.createWebClient().goTo(p.getUrl() + "aiperf-trend/trend?id=aiperf", "image/svg+xml")
                    .getWebResponse().getContentAsString();
            assertTrue(svg.contains("class=\"series\""), svg);

            final FreeStyleProject f = j.jenkins.getItemByFullName("f", FreeStyleProject.class);
            final AiperfProfileBuilder b = f.getBuildersList().get(AiperfProfileBuilder.class);
            assertEquals("llama", b.getId());
            assertEquals(Boolean.FALSE, b.getStreaming());
            assertEquals(null, b.getResetKvCache());
            assertEquals(Integer.valueOf(4), b.getWarmupRequestCount());
            assertEquals(List.of("--extra-inputs", "a b"), b.getExtraArgs());
            assertEquals(before[1], Agents.configXml(f));
        });
    }

    @Test
    void aRestartDuringABenchmarkFailsItAndLeavesNoEngineRunning() throws Throwable {
        final String marker = "restart-model-" + System.nanoTime();
        final String[] config = new String[1];
        final MockServerProcess mock = MockServerProcess.start(200);
        try {
            sessions.then(j -> {
                final DumbSlave agent = Agents.withJava(j);
                final WorkflowJob p = j.createProject(WorkflowJob.class, "long");
                p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') {\n"
                        + "  aiperfProfile(model: '" + marker + "', urls: ['" + mock.url() + "'], streaming: true, "
                        + "concurrency: 2, requestCount: 100000, extraArgs: ['--isl', '8', '--osl', '50'])\n"
                        + "}", true));
                p.save();
                config[0] = Agents.configXml(p);
                assertTrue(config[0].contains(marker), config[0]);
                p.scheduleBuild2(0).waitForStart();
                final long deadline = System.nanoTime() + 120_000_000_000L;
                while (mock.inferenceRequests() < 4 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertTrue(mock.inferenceRequests() >= 4, "the engine is sending");
                assertFalse(Agents.engines(marker).isEmpty());
            });
            sessions.then(j -> {
                final WorkflowJob p = j.jenkins.getItemByFullName("long", WorkflowJob.class);
                final WorkflowRun r = j.waitForCompletion(p.getBuildByNumber(1));
                assertTrue(r.getResult().isWorseThan(Result.UNSTABLE), "a restart fails a running benchmark: "
                        + r.getResult());
                // The harness's agent launcher kills its process tree when the controller goes away; a real agent
                // lets the engine run to the end of its cell (src-docs/jenkins.md, what an abort really does).
                Agents.assertGone(Agents.engines(marker));
                assertEquals(config[0], Agents.configXml(p));
                j.createWebClient().getPage(r);
            });
        } finally {
            mock.close();
        }
    }
}
