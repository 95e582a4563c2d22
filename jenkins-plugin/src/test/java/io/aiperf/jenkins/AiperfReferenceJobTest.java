package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.AbortException;
import hudson.model.Result;
import hudson.security.ACL;
import hudson.security.ACLContext;
import hudson.slaves.DumbSlave;
import java.util.List;
import java.util.Set;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** {@code referenceJob}: a pull request's job gated against the last build of its target branch's job. */
@WithJenkins
class AiperfReferenceJobTest {
    @Test
    void aPullRequestIsGatedAgainstTheLastBuildOfItsReferenceJob(final JenkinsRule j) throws Exception {
        final DumbSlave agent = Agents.withJava(j);
        try (MockServerProcess mock = MockServerProcess.start(5)) {
            final String call = "node('" + agent.getNodeName() + "') {\n"
                    + "  writeFile file: 'gate.yaml', text: 'rules:\\n  - {metric: time_to_first_token, stat: p50,"
                    + " max_increase_pct: 400}\\n'\n"
                    + "  def s = aiperfProfile(id: 'svc', model: 'm', urls: ['" + mock.url() + "'], streaming: true,"
                    + " requestCount: 6, extraArgs: ['--isl', '8', '--osl', '2'], gate: 'gate.yaml'%s)\n"
                    + "  echo \"baselines=${s.baselineBuilds} from=${s.baselineJob}\"\n"
                    + "}";
            final WorkflowJob main = j.createProject(WorkflowJob.class, "main");
            main.setDefinition(new CpsFlowDefinition(String.format(call, ""), true));
            j.buildAndAssertSuccess(main);
            j.buildAndAssertSuccess(main);

            // its first build: without a reference it would have no baseline at all
            final WorkflowJob pr = j.createProject(WorkflowJob.class, "pr-1");
            pr.setDefinition(new CpsFlowDefinition(String.format(call, ", referenceJob: 'main'"), true));
            final WorkflowRun r = j.buildAndAssertSuccess(pr);
            j.assertLogContains("aiperf: baseline: main #2", r);
            j.assertLogContains("baselines=[2] from=main", r);
            final String page = j.createWebClient().getPage(r, "aiperf/").getWebResponse().getContentAsString();
            assertTrue(page.contains("/" + main.getUrl() + "2/aiperf/"), page);

            // a job that is not there is an error that names the setting
            pr.setDefinition(new CpsFlowDefinition(String.format(call, ", referenceJob: 'no-such-job'"), true));
            j.assertLogContains("referenceJob: no job 'no-such-job' that this build may read",
                    j.buildAndAssertStatus(Result.FAILURE, pr));

            // the job is read with the build's authentication: one that may not read it gets no baseline from it
            Security.loggedInAdmin(j, false);
            try (ACLContext system = ACL.as2(ACL.SYSTEM2)) {
                assertSame(main, Baselines.referenceJob(r, "main"), "a build running as SYSTEM (the default) may read it");
            }
            try (ACLContext anonymous = ACL.as2(new AnonymousAuthenticationToken("anonymous", "anonymous",
                    Set.of(new SimpleGrantedAuthority("anonymous"))))) {
                final AbortException denied = assertThrows(AbortException.class,
                        () -> Baselines.referenceJob(r, "main"));
                assertTrue(denied.getMessage().contains("no job 'main' that this build may read"), denied.getMessage());
            }
            final CallSummary summary = r.getAction(AiperfBuildAction.class).getCalls().get("aiperf/svc/run/");
            assertEquals(List.of(2), summary.getBaselineBuilds());
        }
    }
}
