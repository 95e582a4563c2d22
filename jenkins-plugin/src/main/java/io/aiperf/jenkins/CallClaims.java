package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.model.InvisibleAction;
import hudson.model.Run;
import io.aiperf.engine.ci.CallFolders;
import java.util.LinkedHashMap;

/**
 * The archive folders the calls of one build have claimed, each with the call that claimed it, so two calls never
 * write one folder. Kept apart from {@link AiperfBuildAction}, which appears only once a call recorded a verdict
 * (a claim alone says nothing about the benchmark). Persisted with the build; shown nowhere.
 */
public final class CallClaims extends InvisibleAction {
    private static final Object LOCK = new Object();
    /** Replaced, never changed in place, so saving the build while another branch claims reads a whole map. */
    private LinkedHashMap<String, String> owners = new LinkedHashMap<>();

    /**
     * Claims a call's folders in this build before it runs.
     *
     * @throws AbortException naming both calls when another call of this build has the same id and slot
     */
    static void claim(final Run<?, ?> run, final CallFolders folders, final String caller) throws AbortException {
        synchronized (LOCK) {
            CallClaims claims = run.getAction(CallClaims.class);
            if (claims == null) {
                claims = new CallClaims();
                run.addAction(claims);
            }
            final LinkedHashMap<String, String> next = new LinkedHashMap<>(claims.owners);
            final String clash = folders.claim(next, caller);
            if (clash != null) {
                throw new AbortException("aiperf: " + clash);
            }
            claims.owners = next;
        }
    }

    /** Frees the folder of a call that ended without passing (failed or aborted), so {@code retry} can re-run it. */
    static void release(final Run<?, ?> run, final CallFolders folders) {
        synchronized (LOCK) {
            final CallClaims claims = run.getAction(CallClaims.class);
            if (claims != null) {
                final LinkedHashMap<String, String> next = new LinkedHashMap<>(claims.owners);
                next.remove(folders.prefix());
                claims.owners = next;
            }
        }
    }
}
