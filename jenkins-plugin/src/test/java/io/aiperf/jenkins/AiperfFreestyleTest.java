package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The freestyle build step: a run on an agent, the form round-trip, and the form checks' security. */
@WithJenkins
class AiperfFreestyleTest {
    private static AiperfProfileBuilder builder(final String url) {
        final AiperfProfileBuilder b = new AiperfProfileBuilder();
        b.setModel("m");
        b.setUrls(url);
        b.setStreaming(true);
        b.setRequestCount("8");
        b.setExtraArgs("--isl 8 --osl 2");
        return b;
    }

    @Test
    void runsOnAnAgentAndArchives(final JenkinsRule j) throws Exception {
        final DumbSlave agent = j.createOnlineSlave();
        try (MockServerProcess mock = MockServerProcess.start(5, "--fault", "/stop_profile=status:500")) {
            final FreeStyleProject p = j.createFreeStyleProject();
            p.setAssignedNode(agent);
            final AiperfProfileBuilder b = builder(mock.url());
            b.setServerProfiler(true);
            p.getBuildersList().add(b);
            final FreeStyleBuild r = j.buildAndAssertSuccess(p);
            j.assertLogContains("aiperf warning: server_profiler stop failed", r);
            assertTrue(r.getArtifactManager().root().child("aiperf/run/profile_export.jsonl").exists());

            b.setUnstableOnWarnings(true);
            j.assertBuildStatus(Result.UNSTABLE, p.scheduleBuild2(0));
        }
    }

    @Test
    void aFailedResetFailsTheFreestyleBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = j.createOnlineSlave();
        try (MockServerProcess mock = MockServerProcess.start(5, "--fault", "/reset_prefix_cache=status:404")) {
            final FreeStyleProject p = j.createFreeStyleProject();
            p.setAssignedNode(agent);
            final AiperfProfileBuilder b = builder(mock.url());
            b.setResetKvCache(true);
            p.getBuildersList().add(b);
            final FreeStyleBuild r = j.assertBuildStatus(Result.FAILURE, p.scheduleBuild2(0));
            j.assertLogContains("reset_kv_cache failed", r);
        }
    }

    @Test
    void formRoundTripKeepsEverySetting(final JenkinsRule j) throws Exception {
        final AiperfProfileBuilder before = builder("http://127.0.0.1:1 http://127.0.0.1:2");
        before.setConfig("bench.yaml");
        before.setEndpointType("completions");
        before.setConcurrency("8,16");
        before.setWarmupRequestCount("4");
        before.setNumProfileRuns("3");
        before.setResetKvCache(true);
        before.setServerProfiler(true);
        before.setArtifactDir("out/bench");
        before.setArchive(false);
        before.setGate("gate.yaml");
        before.setBaseline("lastN:5");
        before.setUnstableOnWarnings(true);
        before.setCells("run_0001 run_0002");
        final AiperfProfileBuilder after = j.configRoundtrip(before);
        j.assertEqualDataBoundBeans(before, after);
        assertEquals("lastN:5", after.getBaseline());
    }

    @Test
    void formChecksAnswerOnlyToPost(final JenkinsRule j) throws Exception {
        final JenkinsRule.WebClient wc = j.createWebClient();
        wc.assertFails("descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/checkBaseline?baseline=x&gate=g", 405);
        wc.assertFails("descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/fillCredentialsIdItems", 405);
    }
}
