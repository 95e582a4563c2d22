package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import java.net.URL;
import java.util.List;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.WebResponse;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The freestyle build step: runs on an agent, tri-state booleans, the form round-trip, the form checks' security. */
@WithJenkins
class AiperfFreestyleTest {
    private static AiperfProfileBuilder builder(final String url) {
        final AiperfProfileBuilder b = new AiperfProfileBuilder();
        b.setModel("m");
        b.setUrls(List.of(url));
        b.setStreaming(true);
        b.setRequestCount(8);
        b.setExtraArgs(List.of("--isl", "8", "--osl", "2"));
        return b;
    }

    @Test
    void runsOnAnAgentAndArchives(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5, "--fault", "/stop_profile=status:500")) {
            final FreeStyleProject p = j.createFreeStyleProject();
            p.setAssignedNode(agent);
            final AiperfProfileBuilder b = builder(mock.url());
            b.setServerProfiler(true);
            p.getBuildersList().add(b);
            final FreeStyleBuild r = j.buildAndAssertSuccess(p);
            j.assertLogContains("aiperf warning: server_profiler stop failed", r);
            assertTrue(r.getArtifactManager().root().child("aiperf/aiperf/run/profile_export.jsonl").exists());

            b.setUnstableOnWarnings(true);
            j.assertBuildStatus(Result.UNSTABLE, p.scheduleBuild2(0));
        }
    }

    @Test
    void booleansLeftUnsetLeaveTheConfigFileInCharge(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final FreeStyleProject p = j.createFreeStyleProject();
            p.setAssignedNode(agent);
            agent.getWorkspaceFor(p).child("bench.yaml").write("benchmark:\n  model: m\n  endpoint: {url: '"
                    + mock.url() + "', streaming: true}\n  dataset: {isl: 8, osl: 4}\n"
                    + "  phases: [{name: profiling, requests: 6}]\n", "UTF-8");
            final AiperfProfileBuilder b = new AiperfProfileBuilder();
            b.setConfig("bench.yaml");
            p.getBuildersList().add(b);
            // what an untouched form saves: no value for the three engine booleans
            final AiperfProfileBuilder saved = j.configRoundtrip(b);
            assertNull(saved.getStreaming());
            assertNull(saved.getResetKvCache());
            assertNull(saved.getServerProfiler());
            final FreeStyleBuild r = j.buildAndAssertSuccess(p);
            j.assertLogNotContains("--streaming=", r);
            j.assertLogNotContains("--reset-kv-cache=", r);
            j.assertLogNotContains("--server-profiler=", r);
            final AiperfBuildAction action = r.getAction(AiperfBuildAction.class);
            assertNotNull(action.getTrendMetrics("aiperf").get("time_to_first_token_p50"),
                    "the config file's streaming: true was kept, so TTFT was measured");
        }
    }

    @Test
    void aFailedResetFailsTheFreestyleBuild(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
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
        final AiperfProfileBuilder before = builder("http://127.0.0.1:1");
        before.setUrls(List.of("http://127.0.0.1:1", "http://127.0.0.1:2"));
        before.setId("llama-8b");
        before.setConfig("bench.yaml");
        before.setEndpointType("completions");
        before.setConcurrency(8);
        before.setRequestRate(2.5);
        before.setRequestCount(500);
        before.setBenchmarkDuration(60.0);
        before.setWarmupRequestCount(4);
        before.setNumProfileRuns(3);
        before.setResetKvCache(false);
        before.setServerProfiler(true);
        before.setArtifactDir("out/bench");
        before.setArchive(false);
        before.setGate("gate.yaml");
        before.setBaseline("lastN:5");
        before.setUnstableOnWarnings(true);
        before.setCells(List.of("run_0001", "trial_0001/concurrency_8"));
        before.setExtraArgs(List.of("--extra-inputs", "a b", "--osl", "2"));
        before.setJdk("jdk17");
        final AiperfProfileBuilder after = j.configRoundtrip(before);
        j.assertEqualDataBoundBeans(before, after);
        assertEquals(Boolean.FALSE, after.getResetKvCache());
        assertEquals(2.5, after.getRequestRate(), "a number field of the form binds as a number");
        assertEquals(List.of("--extra-inputs", "a b", "--osl", "2"), after.getExtraArgs());
    }

    @Test
    void formChecksAnswerOnlyToPostFromUsersWhoMayConfigureAndOthersGetOk(final JenkinsRule j) throws Exception {
        final JenkinsRule.WebClient wc = j.createWebClient();
        // Stapler's @POST: a GET finds no method to run, so 404 (not 405, which @RequirePOST gives)
        wc.assertFails("descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/checkBaseline?baseline=x&gate=g", 404);
        wc.assertFails("descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/fillCredentialsIdItems", 404);

        final FreeStyleProject p = j.createFreeStyleProject("checked");
        Security.anonymousReadLoggedInAdmin(j);

        final String check = p.getUrl() + "descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/checkBaseline"
                + "?baseline=yesterday&gate=g.yaml";
        final JenkinsRule.WebClient anonymous = j.createWebClient().withThrowExceptionOnFailingStatusCode(false);
        final WebResponse readOnly = post(j, anonymous, check);
        assertEquals(200, readOnly.getStatusCode(), "may read, may not configure: no error for the form's fields");
        assertFalse(readOnly.getContentAsString().contains("is not a baseline"), "and no answer either");

        final JenkinsRule.WebClient admin = j.createWebClient().login(Security.ADMIN, Security.ADMIN_PASSWORD);
        final WebResponse answer = post(j, admin, check);
        assertEquals(200, answer.getStatusCode());
        assertTrue(answer.getContentAsString().contains("is not a baseline"), answer.getContentAsString());
    }

    /** The raw response of a POST with a crumb (no page, so no login-page refresh is followed). */
    private static WebResponse post(final JenkinsRule j, final JenkinsRule.WebClient wc, final String relative)
            throws Exception {
        final WebRequest req = new WebRequest(new URL(j.getURL(), relative), HttpMethod.POST);
        return wc.loadWebResponse(wc.addCrumb(req));
    }
}
