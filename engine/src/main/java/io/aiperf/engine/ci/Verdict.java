package io.aiperf.engine.ci;

import java.util.Collection;

/** What a CI build should become, mirroring Jenkins' results; declared from best to worst. */
public enum Verdict {
    SUCCESS, UNSTABLE, FAILURE, ABORTED;

    /** The worst of verdict names ({@link #name()}); SUCCESS for none, unknown names count as FAILURE. */
    public static Verdict worst(final Collection<String> names) {
        Verdict worst = SUCCESS;
        for (final String n : names) {
            Verdict v;
            try {
                v = valueOf(n);
            } catch (IllegalArgumentException | NullPointerException e) {
                v = FAILURE;
            }
            if (v.ordinal() > worst.ordinal()) {
                worst = v;
            }
        }
        return worst;
    }
}
