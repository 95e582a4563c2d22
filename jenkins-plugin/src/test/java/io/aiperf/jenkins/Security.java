package io.aiperf.jenkins;

import java.util.concurrent.atomic.AtomicInteger;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jvnet.hudson.test.JenkinsRule;

/** Security as a small real instance has it, set up through a trusted (unsandboxed) script as an admin would. */
final class Security {
    static final String ADMIN = "admin";
    static final String ADMIN_PASSWORD = "admin-pass-4711";
    /** A name of its own for each setup job, so one test may switch security on twice. */
    private static final AtomicInteger SETUPS = new AtomicInteger();

    private Security() {
    }

    /** Jenkins' own user database with one admin; anonymous users may read, logged-in users may do anything. */
    static void anonymousReadLoggedInAdmin(final JenkinsRule j) throws Exception {
        loggedInAdmin(j, true);
    }

    /** As above; anonymous users may read only when told; more accounts (password: the name) when given. */
    static void loggedInAdmin(final JenkinsRule j, final boolean anonymousRead, final String... users)
            throws Exception {
        final StringBuilder accounts = new StringBuilder();
        for (final String user : users) {
            accounts.append("realm.createAccount('").append(user).append("', '").append(user).append("')\n");
        }
        trusted(j, "def realm = new hudson.security.HudsonPrivateSecurityRealm(false)\n"
                + "realm.createAccount('" + ADMIN + "', '" + ADMIN_PASSWORD + "')\n" + accounts
                + "jenkins.model.Jenkins.get().setSecurityRealm(realm)\n"
                + "def strategy = new hudson.security.FullControlOnceLoggedInAuthorizationStrategy()\n"
                + "strategy.setAllowAnonymousRead(" + anonymousRead + ")\n"
                + "jenkins.model.Jenkins.get().setAuthorizationStrategy(strategy)\n");
    }

    /** Runs a Groovy script as an admin would, in a trusted (unsandboxed) Pipeline of its own, and waits for it. */
    static void trusted(final JenkinsRule j, final String script) throws Exception {
        final WorkflowJob setup = j.createProject(WorkflowJob.class, "security-setup-" + SETUPS.incrementAndGet());
        setup.setDefinition(new CpsFlowDefinition(script, false));
        j.buildAndAssertSuccess(setup);
    }
}
