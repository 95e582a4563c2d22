package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.ExtensionList;
import hudson.FilePath;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import hudson.slaves.WorkspaceList;
import io.aiperf.engine.ci.InvocationPlanner;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.cps.SnippetizerTester;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * What a build with several calls needs: ids, each call's own folder in a reused workspace, the engine's Java and
 * JVM, the snippet generator, and the pages (job trend, build summary, api/json).
 */
@WithJenkins
class AiperfCallsTest {
    private static final String LOAD = "streaming: true, requestCount: 6, extraArgs: ['--isl', '8', '--osl', '2']";

    private static WorkflowRun build(final JenkinsRule j, final WorkflowJob p, final String script,
                                     final Result expected) throws Exception {
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertStatus(expected, p);
    }

    @Test
    void twoModelsGatedInOneBuildKeepTheirFilesSummariesAndTrendsApart(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess llama = MockServerProcess.start(5); MockServerProcess mistral = MockServerProcess.start(20)) {
            final WorkflowJob p = j.createProject(WorkflowJob.class, "two");
            final String script = "node('" + agent.getNodeName() + "') {\n"
                    + "  writeFile file: 'gate.yaml', text: 'rules:\\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 400}\\n'\n"
                    + "  def a = aiperfProfile(id: 'llama', model: 'llama', urls: ['" + llama.url() + "'], " + LOAD
                    + ", gate: 'gate.yaml')\n"
                    + "  def b = aiperfProfile(id: 'mistral', model: 'mistral', urls: ['" + mistral.url() + "'], " + LOAD
                    + ", gate: 'gate.yaml')\n"
                    + "  echo \"dirs=${a.exportDir},${b.exportDir}\"\n"
                    + "}";
            j.buildAndAssertSuccess(configure(p, script));
            final WorkflowRun second = j.buildAndAssertSuccess(p);
            j.assertLogContains("dirs=aiperf-results/llama/run,aiperf-results/mistral/run", second);
            j.assertLogContains("baseline: build #1", second);
            for (final String id : List.of("llama", "mistral")) {
                assertTrue(second.getArtifactManager().root().child("aiperf/" + id + "/run/profile_export_aiperf.json")
                        .exists(), id);
            }
            final AiperfBuildAction action = second.getAction(AiperfBuildAction.class);
            assertEquals(List.of("llama", "mistral"), action.getIds());
            assertEquals(100, action.getBuildHealth().getScore(), "both benchmarked builds passed");
            assertEquals("icon-health-80plus", action.getBuildHealth().getIconClassName(), "the icon follows the score");
            assertTrue(action.getTrendMetrics("mistral").get("time_to_first_token_p50")
                    > action.getTrendMetrics("llama").get("time_to_first_token_p50"), "each id has its own metrics");

            // core runs the trend's factory only for lookups of its own type (or of all actions), not for every one
            assertEquals(AiperfJobAction.class, ExtensionList.lookupSingleton(AiperfJobAction.Factory.class).actionType());
            assertNotNull(p.getAction(AiperfJobAction.class));
            assertTrue(p.getAllActions().stream().anyMatch(a -> a instanceof AiperfJobAction));
            // the job page shows one trend per id; each trend's points link to their builds
            final String job = j.createWebClient().getPage(p).getWebResponse().getContentAsString();
            assertTrue(job.contains("aiperf-trend/trend?id=llama") && job.contains("aiperf-trend/trend?id=mistral"), job);
            final String svg = j.createWebClient().goTo(p.getUrl() + "aiperf-trend/trend?id=mistral", "image/svg+xml")
                    .getWebResponse().getContentAsString();
            assertTrue(svg.contains("class=\"series\"") && svg.contains(second.getUrl() + "aiperf/"), svg);
            // the build's AIPerf page compares each id with its baseline build, with a link to it and the engine's SVG
            final String aiperf = j.createWebClient().getPage(second, "aiperf/").getWebResponse().getContentAsString();
            // a cell list's '+' must reach the server as '+', not as a space
            assertEquals("compare?call=aiperf%2Fx%2Fcells%2Fa%2Bb%2F", action.compareUrl("aiperf/x/cells/a+b/"));
            assertTrue(aiperf.contains("/" + p.getUrl() + "1/aiperf/")
                    && aiperf.contains("compare?call=aiperf%2Fllama%2Frun%2F")
                    && aiperf.contains("+400% max"), aiperf);
            final String compare = j.createWebClient().goTo(second.getUrl() + "aiperf/compare?call=aiperf/mistral/run/",
                    "image/svg+xml").getWebResponse().getContentAsString();
            // the archived comparison.svg (the report's chart) marks each run's elements with its series
            assertTrue(compare.contains("data-series=\"baseline\"") && compare.contains("data-series=\"candidate\""),
                    compare);
            assertFalse(action.getCalls().get("aiperf/llama/run/").getComparison().isEmpty());
            assertEquals(List.of(1), action.getCalls().get("aiperf/llama/run/").getBaselineBuilds());
            // the build page summary, and api/json
            final String page = j.createWebClient().getPage(second).getWebResponse().getContentAsString();
            assertTrue(page.contains("aiperf/llama/run/") && page.contains("aiperf/mistral/run/"), page);
            final String json = j.createWebClient().goTo(second.getUrl() + "api/json?depth=1", "application/json")
                    .getWebResponse().getContentAsString();
            assertTrue(json.contains("\"verdict\":\"SUCCESS\"") && json.contains("\"ids\":[\"llama\",\"mistral\"]"), json);
        }
    }

    @Test
    void twoCallsWithTheSameIdInOneBuildAreAnErrorNamingBoth(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String call = "aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD + ")\n";
            final WorkflowRun r = build(j, j.createProject(WorkflowJob.class, "dup"), "node('" + agent.getNodeName()
                    + "') {\n" + call + call + "}", Result.FAILURE);
            j.assertLogContains("id 'aiperf' is used twice in this build: by aiperfProfile (flow node", r);
            j.assertLogContains("and by aiperfProfile (flow node", r);
        }
    }

    @Test
    void cellsInAReusedWorkspaceMergeBuildAfterBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String yaml = "multi_run: {num_runs: 2}\\nbenchmark:\\n  model: m\\n  endpoint: {url: '" + mock.url()
                    + "', streaming: true}\\n  dataset: {isl: 8, osl: 2}\\n  phases: [{name: profiling, requests: 6}]\\n";
            // one agent, so every cell of every build runs in the same workspace, one after the other
            final String script = "node('" + agent.getNodeName() + "') {\n"
                    + "  writeFile file: 'b.yaml', text: \"" + yaml + "\"\n"
                    + "  for (id in aiperfCells(config: 'b.yaml')) { aiperfProfile(config: 'b.yaml', cells: [id]) }\n"
                    + "  def s = aiperfAggregate()\n"
                    + "  echo \"merged=${s.cells.size()} verdict=${s.verdict}\"\n"
                    + "}";
            final WorkflowJob p = configure(j.createProject(WorkflowJob.class, "cells"), script);
            for (int build = 1; build <= 3; build++) {
                final WorkflowRun r = j.buildAndAssertSuccess(p);
                j.assertLogContains("merged=2 verdict=SUCCESS", r);
                final Collection<String> first = r.getArtifactManager().root().child("aiperf/aiperf/cells/run_0001")
                        .list("**/*", null, false);
                assertFalse(first.isEmpty());
                assertTrue(first.stream().noneMatch(f -> f.contains("run_0002")), "build " + build + ": " + first);
            }
        }
    }

    @Test
    void aCallWithTwentyCellsRunsInAShortFolder(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            // 2 x 10 sweep points: ids like concurrency_1__isl_8, about 420 bytes joined (a folder name may have 255)
            final String yaml = "sweep: {type: grid, parameters: {concurrency: [1, 2], isl: [8, 9, 10, 11, 12, 13, 14, 15,"
                    + " 16, 17]}}\\nbenchmark:\\n  model: m\\n  endpoint: {url: '" + mock.url() + "', streaming: true}\\n"
                    + "  dataset: {isl: 8, osl: 2}\\n  phases: [{name: profiling, concurrency: 1, requests: 2}]\\n";
            final WorkflowRun r = build(j, j.createProject(WorkflowJob.class, "twenty"), "node('" + agent.getNodeName()
                    + "') {\n  writeFile file: 'b.yaml', text: \"" + yaml + "\"\n"
                    + "  def ids = aiperfCells(config: 'b.yaml')\n"
                    + "  def s = aiperfProfile(config: 'b.yaml', cells: ids)\n"
                    + "  echo \"ids=${ids.size()} ran=${s.cells.size()} verdict=${s.verdict} dir=${s.exportDir}\"\n"
                    + "}", Result.SUCCESS);
            j.assertLogContains("ids=20 ran=20 verdict=SUCCESS", r);
            final String prefix = r.getAction(AiperfBuildAction.class).getCalls().keySet().iterator().next();
            final String folder = prefix.substring("aiperf/aiperf/cells/".length(), prefix.length() - 1);
            assertTrue(folder.length() <= 64 && !folder.contains("/"), folder);
            assertTrue(r.getArtifactManager().root().child(prefix + "run_outcome.json").exists(), prefix);
        }
    }

    @Test
    void javaFromAJdkToolTheJarCachedOnceAndTheJvmOptionsOfTheEnvironment(final JenkinsRule j) throws Exception {
        final DumbSlave agent = j.createOnlineSlave(); // no JAVA_HOME of its own: the JDK tool provides Java
        final WorkflowJob tools = j.createProject(WorkflowJob.class, "tools");
        tools.setDefinition(new CpsFlowDefinition("jenkins.model.Jenkins.get().getDescriptorByType("
                + "hudson.model.JDK.DescriptorImpl).setInstallations(new hudson.model.JDK('test-jdk', '"
                + System.getProperty("java.home").replace("\\", "\\\\") + "'))", false));
        j.buildAndAssertSuccess(tools);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String call = "aiperfProfile(id: '%s', jdk: 'test-jdk', model: 'm', urls: ['" + mock.url() + "'], "
                    + LOAD + ")\n";
            final WorkflowRun r = build(j, j.createProject(WorkflowJob.class, "jvm"), "node('" + agent.getNodeName()
                    + "') {\n  withEnv(['AIPERF_JAVA_OPTS=-Daiperf.test.marker=4711']) {\n"
                    + String.format(call, "first") + String.format(call, "second") + "  }\n}", Result.SUCCESS);
            j.assertLogContains("aiperf: Java from the JDK tool 'test-jdk'", r);
            final String log = JenkinsRule.getLog(r);
            assertEquals(1, log.split("copied the engine jar", -1).length - 1, "the jar is copied once: " + log);
            assertTrue(log.contains("-Daiperf.test.marker=4711 -jar"), "AIPERF_JAVA_OPTS come last: " + log);
            assertTrue(log.contains("-XX:DumpLoadedClassList="), "the first run lists its classes: " + log);
            assertFalse(log.contains("-XX:ArchiveClassesAtExit="), "no dynamic archive recorded at exit: " + log);
            assertTrue(log.contains("-Xshare:auto"), "the second starts from the archive built after the first: "
                    + log);
            // the static archive kept under its name; the class list and the built file's own name are gone
            final FilePath cds = WorkspaceList.tempDir(agent.getWorkspaceFor(j.jenkins.getItemByFullName("jvm",
                    WorkflowJob.class))).child("aiperf-engine/cds");
            final FilePath[] kept = cds.list("*");
            assertEquals(1, kept.length, List.of(kept).toString());
            assertTrue(kept[0].getName().matches("aiperf-[0-9a-f]{16}\\.jsa") && kept[0].length() > 0,
                    kept[0].getName());

            final WorkflowRun missing = build(j, j.createProject(WorkflowJob.class, "nojdk"), "node('"
                    + agent.getNodeName() + "') { " + String.format(call, "x").replace("test-jdk", "no-such-jdk") + " }",
                    Result.FAILURE);
            j.assertLogContains("no Java to run the engine: no JDK tool installation named 'no-such-jdk'", missing);
        }
    }

    @Test
    void javaOnThePathOfTheStepsEnvironmentIsFoundThere(final JenkinsRule j) throws Exception {
        final DumbSlave agent = j.createOnlineSlave();
        final String bin = Path.of(System.getProperty("java.home"), "bin").toString();
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            // no JAVA_HOME in the step's environment; its PATH (not the agent JVM's) starts with this JDK
            final WorkflowRun r = build(j, j.createProject(WorkflowJob.class, "path"), "node('" + agent.getNodeName()
                    + "') {\n  withEnv(['JAVA_HOME=', 'PATH+TESTJDK=" + bin.replace("\\", "\\\\") + "']) {\n"
                    + "    aiperfProfile(model: 'm', urls: ['" + mock.url() + "'], " + LOAD + ")\n  }\n}", Result.SUCCESS);
            j.assertLogContains("aiperf: Java from java on the PATH (" + Path.of(bin, "java"), r);
        }
    }

    @Test
    void aJavaOlderThan17IsRefusedWithItsVersion(final JenkinsRule j, @TempDir final Path tmp) throws Exception {
        // a "java" that says it is 11, the only one the step's environment has
        final Path bin = Files.createDirectories(tmp.resolve("jdk11/bin"));
        final Path java = Files.writeString(bin.resolve("java"), "#!/bin/sh\n"
                + "echo 'openjdk version \"11.0.22\" 2024-01-16' >&2\n");
        assertTrue(java.toFile().setExecutable(true));
        final String home = bin.getParent().toString();
        final WorkflowRun r = build(j, j.createProject(WorkflowJob.class, "java11"), "node('"
                + j.createOnlineSlave().getNodeName() + "') {\n  withEnv(['JAVA_HOME=" + home + "', 'PATH=" + bin
                + "']) {\n    aiperfProfile(model: 'm', urls: ['http://127.0.0.1:9'])\n  }\n}", Result.FAILURE);
        // (a plain "java" may still be found on the agent JVM's own PATH; nothing answers at port 9 either way)
        j.assertLogContains("aiperf: not using Java from JAVA_HOME (" + home + "): Java 11 is too old (the engine needs"
                + " Java 17 or newer)", r);
    }

    @Test
    void theSnippetGeneratorOffersEveryField(final JenkinsRule j) throws Exception {
        final SnippetizerTester st = new SnippetizerTester(j);
        final AiperfProfileStep step = new AiperfProfileStep();
        step.setId("llama");
        step.setModel("m");
        step.setUrls(List.of("http://a:8000"));
        st.assertRoundTrip(step, "aiperfProfile id: 'llama', model: 'm', urls: ['http://a:8000']");
        // the form: list fields are one line of words, a boolean left at "from the config file" is not passed
        st.assertGenerateSnippet("{'stapler-class': 'io.aiperf.jenkins.AiperfProfileStep', 'id': 'llama', "
                        + "'urls': 'http://a:8000 http://b:8000', 'streaming': 'true', 'resetKvCache': '', "
                        + "'extraArgs': '--osl 2', 'cells': 'run_0001'}",
                "aiperfProfile cells: ['run_0001'], extraArgs: ['--osl', '2'], id: 'llama', streaming: true, "
                        + "urls: ['http://a:8000', 'http://b:8000']", null);
        SnippetizerTester.assertDocGeneration(AiperfProfileStep.class);

        final AiperfAggregateStep aggregate = new AiperfAggregateStep();
        aggregate.setId("llama");
        aggregate.setGate("g.yaml");
        st.assertRoundTrip(aggregate, "aiperfAggregate gate: 'g.yaml', id: 'llama'");
        final AiperfGateStep gate = new AiperfGateStep();
        gate.setId("sh");
        gate.setResults("out/run");
        gate.setGate("g.yaml");
        st.assertRoundTrip(gate, "aiperfGate gate: 'g.yaml', id: 'sh', results: 'out/run'");
        st.assertRoundTrip(new AiperfCellsStep("b.yaml"), "aiperfCells 'b.yaml'");
    }

    @Test
    @SuppressWarnings("deprecation") // newInstance(Map) binds as a Pipeline call does (structs' DescribableModel)
    void theLoadTakesNumbersAsNumbers(final JenkinsRule j) throws Exception {
        // what a Pipeline's Groovy gives: Integer for 500, BigDecimal for 2.5
        final AiperfProfileStep step = (AiperfProfileStep) j.jenkins.getDescriptorByType(
                AiperfProfileStep.DescriptorImpl.class).newInstance(Map.of("model", "m",
                "urls", List.of("http://h:1"), "requestCount", 500, "concurrency", 8, "requestRate",
                new BigDecimal("2.5"), "benchmarkDuration", 60));
        assertEquals(500, step.getRequestCount());
        assertEquals(8, step.getConcurrency());
        assertEquals(2.5, step.getRequestRate());
        assertEquals(60.0, step.getBenchmarkDuration());
        // the engine gets them as its flags' values, whole numbers without a fraction
        final List<String> argv = InvocationPlanner.plan(step.settings().toSpec(), List.of("aiperf"), List.of()).argv();
        assertTrue(Collections.indexOfSubList(argv, List.of("--concurrency", "8", "--request-rate", "2.5",
                "--request-count", "500", "--benchmark-duration", "60")) > 0, argv.toString());
        final AiperfProfileStep small = new AiperfProfileStep();
        small.setConcurrency(8);
        small.setRequestCount(500);
        new SnippetizerTester(j).assertRoundTrip(small, "aiperfProfile concurrency: 8, requestCount: 500");
    }

    private static WorkflowJob configure(final WorkflowJob p, final String script) throws Exception {
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }
}
