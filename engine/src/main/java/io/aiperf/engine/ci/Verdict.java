package io.aiperf.engine.ci;

import java.util.Collection;

/** What a CI build should become, mirroring Jenkins' results; declared from best to worst. */
public enum Verdict {
    SUCCESS, UNSTABLE, FAILURE, ABORTED;

    /** The verdict of a name ({@link #name()}, as a summary stores it); an unknown or missing one is FAILURE. */
    public static Verdict of(final Object name) {
        try {
            return valueOf(String.valueOf(name));
        } catch (IllegalArgumentException e) {
            return FAILURE;
        }
    }

    /** The worst of verdict names ({@link #name()}); SUCCESS for none, unknown names count as FAILURE. */
    public static Verdict worst(final Collection<String> names) {
        Verdict worst = SUCCESS;
        for (final String n : names) {
            final Verdict v = of(n);
            if (v.ordinal() > worst.ordinal()) {
                worst = v;
            }
        }
        return worst;
    }
}
