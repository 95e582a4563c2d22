package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.Result;
import hudson.model.Run;
import hudson.slaves.DumbSlave;
import io.aiperf.engine.ci.Verdict;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.htmlunit.WebResponse;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** {@code aiperfProfile}, {@code aiperfCells} and {@code aiperfAggregate} in real Pipelines on agents, against the mock. */
@WithJenkins
class AiperfPipelineTest {
    private static final String LOAD = "streaming: true, requestCount: 8, concurrency: 2, "
            + "extraArgs: ['--isl', '8', '--osl', '2']";

    private static WorkflowRun build(final JenkinsRule j, final String name, final String script, final Result expected)
            throws Exception {
        final WorkflowJob p = j.jenkins.getItemByFullName(name, WorkflowJob.class) != null
                ? j.jenkins.getItemByFullName(name, WorkflowJob.class) : j.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertStatus(expected, p);
    }

    @Test
    void successArchivesTheExportsAndReturnsTheSummary(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final WorkflowRun r = build(j, "ok", "node('" + agent.getNodeName() + "') {\n"
                    + "  def s = aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD
                    + ", resetKvCache: true, serverProfiler: true)\n"
                    + "  echo \"verdict=${s.verdict} gate=${s.gate} cells=${s.cells.size()} ttft=${s.metrics.time_to_first_token_p50 > 0}\"\n"
                    + "  echo \"exportDir=${s.exportDir}\"\n"
                    + "}", Result.SUCCESS);
            j.assertLogContains("verdict=SUCCESS gate=none cells=1 ttft=true", r);
            j.assertLogContains("--concurrency 2 --request-count 8", r); // unquoted numbers reach the engine
            assertTrue(r.getArtifactManager().root().child("aiperf/aiperf/run/profile_export_aiperf.json").exists());
            assertTrue(r.getArtifactManager().root().child("aiperf/aiperf/run/cell_outcome.json").exists());
            final AiperfBuildAction action = r.getAction(AiperfBuildAction.class);
            assertNotNull(action);
            assertEquals("SUCCESS", action.getVerdict());
            assertFalse(action.getTrendMetrics("aiperf").isEmpty());
            j.assertLogContains("exportDir=aiperf-results/aiperf/run", r);
        }
    }

    @Test
    void aCallThatFailsBeforeRecordingShowsNoVerdict(final JenkinsRule j) throws Exception {
        final DumbSlave agent = j.createOnlineSlave();
        // the call claims its folder, then finds no Java: nothing is recorded
        final WorkflowRun r = build(j, "nojava", "node('" + agent.getNodeName() + "') {\n"
                + "  aiperfProfile(model: 'm', urls: ['http://127.0.0.1:9'], jdk: 'no-such-jdk')\n"
                + "}", Result.FAILURE);
        j.assertLogContains("no JDK tool installation named 'no-such-jdk'", r);
        assertNull(r.getAction(AiperfBuildAction.class));
        final String page = j.createWebClient().getPage(r).getWebResponse().getContentAsString();
        assertFalse(page.contains("AIPerf: SUCCESS"), page);
        final String json = j.createWebClient().goTo(r.getUrl() + "api/json?depth=1", "application/json")
                .getWebResponse().getContentAsString();
        assertFalse(json.contains("\"verdict\""), json);
    }

    @Test
    void retryRunsAFailedCallAgainAndTheReturnedMapIsTheScriptsOwn(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            // the first attempt claims the call's folder and fails; the retry must be able to claim it again
            final WorkflowRun r = build(j, "retry", "node('" + agent.getNodeName() + "') {\n"
                    + "  int attempt = 0\n"
                    + "  def s\n"
                    + "  retry(2) {\n"
                    + "    attempt++\n"
                    + "    s = aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD
                    + ", jdk: attempt == 1 ? 'no-such-jdk' : null)\n"
                    + "  }\n"
                    + "  s.put('verdict', 'CHANGED')\n"
                    + "  s.metrics.put('time_to_first_token_p50', -1)\n"
                    + "  echo \"attempts=${attempt}\"\n"
                    + "}", Result.SUCCESS);
            j.assertLogContains("no JDK tool installation named 'no-such-jdk'", r);
            j.assertLogContains("attempts=2", r);
            final CallSummary recorded = r.getAction(AiperfBuildAction.class).getCalls().get("aiperf/aiperf/run/");
            assertEquals(Verdict.SUCCESS, recorded.getVerdict(), "the build's record is not the script's map");
            assertTrue(recorded.getMetrics().get("time_to_first_token_p50") > 0);
        }
    }

    @Test
    void aFailedKvCacheResetFailsTheBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5, "--fault", "/reset_prefix_cache=status:404")) {
            final WorkflowRun r = build(j, "reset", "node('" + agent.getNodeName() + "') {\n"
                    + "  aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD + ", resetKvCache: true)\n"
                    + "}", Result.FAILURE);
            j.assertLogContains("reset_kv_cache failed", r);
            assertTrue(r.getArtifactManager().root().child("aiperf/aiperf/run/cell_outcome.json").exists());
        }
    }

    @Test
    void aFailedProfilerStopIsAWarningOrUnstableOnRequest(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5, "--fault", "/stop_profile=status:500")) {
            final String step = "aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD + ", serverProfiler: true";
            final WorkflowRun ok = build(j, "stop", "node('" + agent.getNodeName() + "') { " + step + ") }",
                    Result.SUCCESS);
            j.assertLogContains("aiperf warning: server_profiler stop failed", ok);
            final String page = j.createWebClient().getPage(ok, "aiperf/").asNormalizedText();
            assertTrue(page.contains("server_profiler stop failed"), page);

            final WorkflowRun unstable = build(j, "stop-unstable", "node('" + agent.getNodeName() + "') { " + step
                    + ", unstableOnWarnings: true) }", Result.UNSTABLE);
            assertEquals(Result.UNSTABLE, warningOn(unstable, "aiperfProfile").getResult());
        }
    }

    @Test
    void aGateRegressionIsUnstableOrFailureAgainstTheLastSuccessfulBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        final String rules = "rules:\\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 50, criticality: %s}\\n";
        final String script = "node('" + agent.getNodeName() + "') {\n"
                + "  writeFile file: 'gate.yaml', text: \"" + rules + "\"\n"
                + "  def s = aiperfProfile(model: 'm', urls: ['%s'], " + LOAD + ", gate: 'gate.yaml')\n"
                + "  echo \"gate=${s.gate}\"\n"
                + "}";
        try (MockServerProcess fast = MockServerProcess.start(5)) {
            final WorkflowRun first = build(j, "gated", String.format(script, "unstable", fast.url()), Result.SUCCESS);
            j.assertLogContains("relative gate rules are inactive", first);
        }
        try (MockServerProcess slow = MockServerProcess.start(60)) {
            final WorkflowRun regressed = build(j, "gated", String.format(script, "unstable", slow.url()), Result.UNSTABLE);
            j.assertLogContains("baseline: build #1", regressed);
            j.assertLogContains("gate=unstable", regressed);
            assertEquals(Result.UNSTABLE, warningOn(regressed, "aiperfProfile").getResult());
            // The build page's image is the engine's comparison.svg, archived beside report.html: both runs drawn.
            assertTrue(regressed.getArtifactManager().root().child("aiperf/aiperf/run/comparison.svg").isFile());
            final String svg = j.createWebClient().goTo(regressed.getUrl() + "aiperf/compare?call=aiperf/aiperf/run/",
                    "image/svg+xml").getWebResponse().getContentAsString();
            assertTrue(svg.contains("Verdict: UNSTABLE") && svg.contains("data-series=\"baseline\"")
                    && svg.contains("data-series=\"candidate\""), svg);
            // build #2 is UNSTABLE, so previousSuccessful still compares with build #1
            final WorkflowRun failed = build(j, "gated", String.format(script, "failure", slow.url()), Result.FAILURE);
            j.assertLogContains("baseline: build #1", failed);
            j.assertLogContains("gate failed", failed);

            // The archived SVG is a file a build step wrote: served sandboxed and never sniffed as another type ...
            final String compare = regressed.getUrl() + "aiperf/compare?call=aiperf/aiperf/run/";
            final WebResponse served = j.createWebClient().goTo(compare, "image/svg+xml").getWebResponse();
            assertTrue(served.getResponseHeaderValue("Content-Security-Policy").startsWith("sandbox;"),
                    served.getResponseHeaderValue("Content-Security-Policy"));
            assertEquals("nosniff", served.getResponseHeaderValue("X-Content-Type-Options"));
            // ... and only to those who may read artifacts; others get the bars drawn from the recorded summary.
            Security.anonymousReadLoggedInAdmin(j);
            Run.ARTIFACTS.setEnabled(true);
            try {
                final String bars = j.createWebClient().goTo(compare, "image/svg+xml").getWebResponse()
                        .getContentAsString();
                assertTrue(bars.contains("class=\"candidate\"") && !bars.contains("Verdict: UNSTABLE"), bars);
            } finally {
                Run.ARTIFACTS.setEnabled(false);
            }
        }
    }

    @Test
    void theApiKeyReachesTheServerButNoLogNoFileAndNoCommandLine(final JenkinsRule j) throws Exception {
        final String secret = "sk-test-VERY-SECRET-4711";
        final DumbSlave agent = Agents.withJava(j);
        final WorkflowJob setup = j.createProject(WorkflowJob.class, "setup");
        setup.setDefinition(new CpsFlowDefinition(
                "com.cloudbees.plugins.credentials.SystemCredentialsProvider.getInstance().getCredentials().add("
                        + "new org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl("
                        + "com.cloudbees.plugins.credentials.CredentialsScope.GLOBAL, 'api-key', 'test key', "
                        + "hudson.util.Secret.fromString('" + secret + "')))", false));
        j.buildAndAssertSuccess(setup);
        try (MockServerProcess mock = MockServerProcess.start(5, "--api-key", secret)) {
            final WorkflowRun r = build(j, "secret", "node('" + agent.getNodeName() + "') {\n"
                    + "  def s = aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD
                    + ", credentialsId: 'api-key', resetKvCache: true)\n"
                    + "  echo \"errors=${s.metrics.error_rate}\"\n"
                    + "}", Result.SUCCESS);
            j.assertLogContains("errors=0.0", r); // the server accepted the key
            j.assertLogContains("--api-key-env AIPERF_API_KEY", r);
            j.assertLogNotContains(secret, r);
            assertFalse(Files.readString(new File(r.getRootDir(), "build.xml").toPath(), StandardCharsets.UTF_8)
                    .contains(secret));
            try (var in = r.getArtifactManager().root().child("aiperf/aiperf/run/profile_export_aiperf.json").open()) {
                assertFalse(new String(in.readAllBytes(), StandardCharsets.UTF_8).contains(secret));
            }
        }
    }

    @Test
    void cellsSpreadOverTwoAgentsWithParallelAndMerge(final JenkinsRule j) throws Exception {
        Agents.withJava(j, j.jenkins.getLabel("bench"));
        Agents.withJava(j, j.jenkins.getLabel("bench"));
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String yaml = "multi_run: {num_runs: 2}\\nbenchmark:\\n  model: m\\n  endpoint: {url: '" + mock.url()
                    + "', streaming: true}\\n  dataset: {isl: 8, osl: 2}\\n  phases: [{name: profiling, requests: 6}]\\n";
            final WorkflowRun r = build(j, "cells", "def ids\n"
                    + "node('bench') { writeFile file: 'b.yaml', text: \"" + yaml + "\"; ids = aiperfCells(config: 'b.yaml') }\n"
                    + "echo \"cells=${ids}\"\n"
                    + "def branches = [:]\n"
                    + "for (id in ids) { def cell = id; branches[cell] = { node('bench') {\n"
                    + "  writeFile file: 'b.yaml', text: \"" + yaml + "\"\n"
                    + "  aiperfProfile(config: 'b.yaml', cells: [cell]) } } }\n"
                    + "parallel branches\n"
                    + "node('bench') { def s = aiperfAggregate(); echo \"merged=${s.cells.size()} verdict=${s.verdict}\" }\n",
                    Result.SUCCESS);
            j.assertLogContains("cells=[run_0001, run_0002]", r);
            j.assertLogContains("merged=2 verdict=SUCCESS", r);
            assertTrue(r.getArtifactManager().root().child("aiperf/aiperf/cells/run_0001/profile_runs/run_0001/cell_outcome.json").exists());
            assertTrue(r.getArtifactManager().root()
                    .child("aiperf/aiperf/aggregate/aggregate/profile_export_aiperf_aggregate.json").exists());
        }
    }

    @Test
    void anAbortStopsTheEngineArchivesWhatItWroteAndLeavesTheJobAlone(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        final String marker = "abort-model-" + System.nanoTime();
        try (MockServerProcess mock = MockServerProcess.start(200)) {
            final WorkflowJob p = j.createProject(WorkflowJob.class, "abort");
            p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') {\n"
                    + "  aiperfProfile(model: '" + marker + "', urls: ['" + mock.url() + "'], streaming: true, "
                    + "concurrency: 2, requestCount: 100000, extraArgs: ['--isl', '8', '--osl', '50'])\n"
                    + "}", true));
            p.save();
            final String config = Agents.configXml(p);
            assertTrue(config.contains(marker), "the saved configuration holds the script");
            final WorkflowRun r = p.scheduleBuild2(0).waitForStart();
            final long deadline = System.nanoTime() + 120_000_000_000L;
            while (mock.inferenceRequests() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(mock.inferenceRequests() >= 4, "the engine is sending");
            final List<ProcessHandle> engines = Agents.engines(marker);
            assertFalse(engines.isEmpty(), "the engine process is found by its model name");
            r.getExecutor().interrupt();
            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(r));
            j.assertLogContains("Jenkins stopped the engine, archiving what it wrote", r);
            Agents.assertGone(engines);
            assertTrue(Agents.engines(marker).isEmpty());
            try (var in = r.getArtifactManager().root().child("aiperf/aiperf/run/profile_export_aiperf.json").open()) {
                assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).matches("(?s).*\"was_cancelled\"\\s*:\\s*true.*"));
            }
            assertEquals(config, Agents.configXml(p));
            assertEquals("ABORTED", r.getAction(AiperfBuildAction.class).getVerdict());
        }
    }

    @Test
    void anEngineStoppedBySigtermFromElsewhereAbortsTheBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        final String marker = "sigterm-model-" + System.nanoTime();
        try (MockServerProcess mock = MockServerProcess.start(200)) {
            final WorkflowJob p = j.createProject(WorkflowJob.class, "sigterm");
            p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') {\n"
                    + "  aiperfProfile(model: '" + marker + "', urls: ['" + mock.url() + "'], streaming: true, "
                    + "concurrency: 2, requestCount: 100000, extraArgs: ['--isl', '8', '--osl', '50'])\n"
                    + "}", true));
            final WorkflowRun r = p.scheduleBuild2(0).waitForStart();
            final long deadline = System.nanoTime() + 120_000_000_000L;
            while (mock.inferenceRequests() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            final List<ProcessHandle> engines = Agents.engines(marker);
            assertFalse(engines.isEmpty(), "the engine process is found by its model name");
            engines.forEach(ProcessHandle::destroy); // SIGTERM, as a container stop or an operator's kill sends it
            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(r));
            j.assertLogContains("aiperf: ABORTED", r);
            j.assertLogNotContains("Jenkins stopped the engine", r);
            assertEquals("ABORTED", r.getAction(AiperfBuildAction.class).getVerdict());
        }
    }

    /** The WarningAction on the first node of the named step, walking the graph back from the heads. */
    private static WarningAction warningOn(final WorkflowRun r, final String function) {
        final Deque<FlowNode> todo = new ArrayDeque<>(r.getExecution().getCurrentHeads());
        final Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            final FlowNode n = todo.pop();
            if (!seen.add(n.getId())) {
                continue;
            }
            if (function.equals(n.getDisplayFunctionName()) && n.getPersistentAction(WarningAction.class) != null) {
                return n.getPersistentAction(WarningAction.class);
            }
            todo.addAll(n.getParents());
        }
        throw new AssertionError("no " + function + " node with a WarningAction");
    }
}
