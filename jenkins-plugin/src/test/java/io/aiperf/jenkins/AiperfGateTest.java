package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestBuilder;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** {@code aiperfGate} and its freestyle post-build action: results produced elsewhere, gated and recorded. */
@WithJenkins
class AiperfGateTest {
    @Test
    void exportsOfAnShStepAreGatedAgainstTheLastSuccessfulBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String jar = MockServerProcess.engineJar().getPath();
        final WorkflowJob p = j.createProject(WorkflowJob.class, "sh-gate");
        final String script = "node('" + agent.getNodeName() + "') {\n"
                + "  writeFile file: 'gate.yaml', text: 'rules:\\n  - {metric: time_to_first_token, stat: p50, "
                + "max_increase_pct: 50, criticality: unstable}\\n'\n"
                + "  sh \"'" + java + "' -jar '" + jar + "' profile --model m --url %s --streaming=true "
                + "--request-count 8 --isl 8 --osl 2 --artifact-dir out/run\"\n"
                + "  def s = aiperfGate(id: 'sh', results: 'out/run', gate: 'gate.yaml')\n"
                + "  echo \"gate=${s.gate} verdict=${s.verdict} dir=${s.exportDir}\"\n"
                + "}";
        try (MockServerProcess fast = MockServerProcess.start(5)) {
            p.setDefinition(new CpsFlowDefinition(String.format(script, fast.url()), true));
            final WorkflowRun first = j.buildAndAssertSuccess(p);
            j.assertLogContains("relative gate rules are inactive", first);
            j.assertLogContains("dir=aiperf-results/sh/run", first);
            assertTrue(first.getArtifactManager().root().child("aiperf/sh/run/profile_export_aiperf.json").exists());
        }
        try (MockServerProcess slow = MockServerProcess.start(60)) {
            p.setDefinition(new CpsFlowDefinition(String.format(script, slow.url()), true));
            final WorkflowRun regressed = j.buildAndAssertStatus(Result.UNSTABLE, p);
            j.assertLogContains("baseline: build #1", regressed);
            // A client short of CPU (a loaded machine) cannot judge a change within its own lateness, and the gate
            // says so: inconclusive, which the step reports as UNSTABLE too. Otherwise the regression itself is the
            // verdict. (The profile's own validity warning, "the client was short of CPU and ...", decides nothing.)
            j.assertLogContains(JenkinsRule.getLog(regressed).contains("is within the client's own lateness")
                    ? "gate=inconclusive verdict=UNSTABLE" : "gate=unstable verdict=UNSTABLE", regressed);
            assertTrue(regressed.getArtifactManager().root().child("aiperf/sh/run/gate_result.json").exists());
            assertEquals(List.of("sh"), regressed.getAction(AiperfBuildAction.class).getIds());
        }
    }

    @Test
    void theFreestyleActionRecordsAnImportedResultFile(final JenkinsRule j) throws Exception {
        final FreeStyleProject p = j.createFreeStyleProject();
        p.setAssignedNode(Agents.withJava(j));
        p.getBuildersList().add(TestBuilder.of((build, launcher, listener) -> build.getWorkspace().child("vllm.json")
                .write("{\"mean_ttft_ms\": 12.5, \"median_ttft_ms\": 12.0, \"p99_ttft_ms\": 20.0, \"completed\": 10}",
                        "UTF-8")));
        final AiperfGateRecorder gate = new AiperfGateRecorder();
        gate.setId("vllm");
        gate.setResults("vllm.json");
        p.getPublishersList().add(gate);
        final FreeStyleBuild r = j.buildAndAssertSuccess(p);
        assertTrue(r.getArtifactManager().root().child("aiperf/vllm/run/vllm.json").exists());
        assertEquals(List.of("vllm"), r.getAction(AiperfBuildAction.class).getIds());

        final AiperfGateRecorder before = new AiperfGateRecorder();
        before.setId("x");
        before.setResults("out/run");
        before.setGate("gate.yaml");
        before.setBaseline("lastN:3");
        before.setArchive(false);
        before.setUnstableOnWarnings(true);
        before.setJdk("jdk17");
        j.assertEqualDataBoundBeans(before, j.configRoundtrip(before));
    }

    @Test
    void resultsAreRequiredAndMustStayInTheWorkspace(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        final WorkflowJob p = j.createProject(WorkflowJob.class, "bad");
        p.setDefinition(new CpsFlowDefinition("node('" + agent.getNodeName() + "') { aiperfGate(results: '../x') }",
                true));
        j.assertLogContains("aiperfGate: results: must be a path inside the workspace",
                j.buildAndAssertStatus(Result.FAILURE, p));
    }
}
