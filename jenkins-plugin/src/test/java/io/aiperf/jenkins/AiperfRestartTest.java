package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import io.aiperf.engine.ci.Verdict;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    void aSummaryIsStoredTypedInBuildXmlAndAnOlderBuildsMapStillLoads() throws Throwable {
        sessions.then(j -> {
            final FreeStyleProject p = j.createFreeStyleProject("recorded");
            final FreeStyleBuild typed = j.buildAndAssertSuccess(p);
            final FreeStyleBuild older = j.buildAndAssertSuccess(p);
            final LinkedHashMap<String, Object> summary = new LinkedHashMap<>();
            summary.put("verdict", "UNSTABLE");
            summary.put("exitCode", 0);
            summary.put("reasons", new ArrayList<>(List.of("slower than #3")));
            summary.put("metrics", new LinkedHashMap<>(Map.of("time_to_first_token_p50", 12.5)));
            summary.put("baselineBuilds", new ArrayList<>(List.of(3)));
            summary.put("id", "svc");
            AiperfBuildAction.record(typed, "aiperf/svc/run/", summary);
            typed.save();
            final String xml = Files.readString(new File(typed.getRootDir(), "build.xml").toPath());
            assertTrue(xml.contains("<io.aiperf.jenkins.CallSummary>") && xml.contains("<verdict>UNSTABLE</verdict>")
                    && xml.contains("<exitCode>0</exitCode>"), xml);
            assertFalse(xml.contains("<string>verdict</string>"), "no untyped map: " + xml);
            // a build recorded before the summary was typed kept the step's map
            final File olderXml = new File(older.getRootDir(), "build.xml");
            Files.writeString(olderXml.toPath(), Files.readString(olderXml.toPath()).replace("</actions>",
                    "<io.aiperf.jenkins.AiperfBuildAction><calls><entry><string>aiperf/old/run/</string>"
                            + "<linked-hash-map><entry><string>verdict</string><string>FAILURE</string></entry>"
                            + "<entry><string>exitCode</string><int>1</int></entry>"
                            + "<entry><string>metrics</string><linked-hash-map><entry>"
                            + "<string>time_to_first_token_p50</string><double>7.5</double></entry></linked-hash-map>"
                            + "</entry><entry><string>id</string><string>old</string></entry></linked-hash-map>"
                            + "</entry></calls></io.aiperf.jenkins.AiperfBuildAction></actions>"));
        });
        sessions.then(j -> {
            final FreeStyleProject p = j.jenkins.getItemByFullName("recorded", FreeStyleProject.class);
            final CallSummary typed = p.getBuildByNumber(1).getAction(AiperfBuildAction.class).getCalls()
                    .get("aiperf/svc/run/");
            assertEquals(Verdict.UNSTABLE, typed.getVerdict());
            assertEquals(12.5, typed.getMetrics().get("time_to_first_token_p50"));
            assertEquals(List.of(3), typed.getBaselineBuilds());
            assertEquals(List.of("slower than #3"), typed.getReasons());
            final FreeStyleBuild older = p.getBuildByNumber(2);
            final AiperfBuildAction action = older.getAction(AiperfBuildAction.class);
            final CallSummary old = action.getCalls().get("aiperf/old/run/");
            assertEquals(Verdict.FAILURE, old.getVerdict());
            assertEquals(1, old.getExitCode());
            assertEquals(7.5, old.getMetrics().get("time_to_first_token_p50"));
            assertEquals("FAILURE", action.getVerdict());
            assertEquals(List.of("old"), action.getIds());
            // the pages and api/json read the typed record as they read the map
            assertTrue(j.createWebClient().getPage(older, "aiperf/").getWebResponse().getContentAsString()
                    .contains("old: FAILURE"));
            final String json = j.createWebClient().goTo(p.getBuildByNumber(1).getUrl() + "api/json?depth=1",
                    "application/json").getWebResponse().getContentAsString();
            assertTrue(json.contains("\"verdict\":\"UNSTABLE\"") && json.contains("\"time_to_first_token_p50\":12.5"),
                    json);
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
