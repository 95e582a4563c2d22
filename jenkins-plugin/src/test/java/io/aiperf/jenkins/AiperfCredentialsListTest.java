package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.FreeStyleProject;
import java.net.URL;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.WebResponse;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The credentials dropdown lists what the job will find when it runs, under the authentication it runs as. */
@WithJenkins
class AiperfCredentialsListTest {
    private static final String FILL = "descriptorByName/io.aiperf.jenkins.AiperfProfileBuilder/fillCredentialsIdItems";

    @Test
    void aJobRunningAsAUserWhoCannotSeeACredentialDoesNotListIt(final JenkinsRule j) throws Exception {
        final FreeStyleProject asSystem = j.createFreeStyleProject("as-system");
        final FreeStyleProject asAlice = j.createFreeStyleProject("as-alice");
        // a global credential in the system store, which only SYSTEM may list; 'as-alice' runs as alice
        Security.trusted(j, "com.cloudbees.plugins.credentials.SystemCredentialsProvider.getInstance().getCredentials()"
                + ".add(new org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl("
                + "com.cloudbees.plugins.credentials.CredentialsScope.GLOBAL, 'system-key', 'a global key', "
                + "hudson.util.Secret.fromString('not-shown')))\n"
                + "def alice = new org.springframework.security.authentication.UsernamePasswordAuthenticationToken("
                + "'alice', '', [hudson.security.SecurityRealm.AUTHENTICATED_AUTHORITY2])\n"
                + "jenkins.security.QueueItemAuthenticatorConfiguration.get().getAuthenticators().add("
                + "new org.jvnet.hudson.test.MockQueueItemAuthenticator().authenticate('as-alice', alice))\n");
        Security.loggedInAdmin(j, false, "alice"); // the credentials plugin looks alice up to list her own
        final JenkinsRule.WebClient admin = j.createWebClient().login(Security.ADMIN, Security.ADMIN_PASSWORD);

        assertTrue(fill(j, admin, asSystem, "").contains("\"value\":\"system-key\""),
                "a job that runs as SYSTEM finds the global credential");
        final String alices = fill(j, admin, asAlice, "");
        assertFalse(alices.contains("system-key"), "the build, running as alice, would not find it: " + alices);
        final String kept = fill(j, admin, asAlice, "system-key");
        assertTrue(kept.contains("\"value\":\"system-key\""), "the current value stays selectable: " + kept);
        assertFalse(kept.contains("a global key"), "but is not described as the credential: " + kept);
    }

    /** The dropdown's JSON for a job, as the configure page asks for it (a POST with a crumb). */
    private static String fill(final JenkinsRule j, final JenkinsRule.WebClient wc, final FreeStyleProject p,
                               final String current) throws Exception {
        final WebRequest req = new WebRequest(new URL(j.getURL(), p.getUrl() + FILL + "?credentialsId=" + current),
                HttpMethod.POST);
        final WebResponse rsp = wc.loadWebResponse(wc.addCrumb(req));
        assertEquals(200, rsp.getStatusCode(), rsp.getContentAsString());
        return rsp.getContentAsString();
    }
}
