package io.aiperf.engine.search;

import java.util.OptionalInt;

/**
 * Chooses a capacity search's points (src-docs/capacity.md, "How it searches"): ask with {@link #next}, answer with
 * {@link #tell}. Not thread-safe.
 */
public interface Planner {
    /** The next value to probe, or empty when the search is over. */
    OptionalInt next();

    /** The outcome of probing {@code value}: whether it met the SLOs. */
    void tell(int value, boolean met);

    /** Whether the boundary is found (else the probe budget ran out). */
    boolean converged();

    /** The capacity: the highest value taken as meeting the SLOs, or empty. */
    OptionalInt capacity();

    /** The lowest value probed that did not meet them, or empty. */
    OptionalInt lowestMissed();

    /** The planner's name in {@code search_result.json}. */
    String name();

    /** The planner named {@code name} for a search of {@code [min, max]} in at most {@code maxProbes} points. */
    static Planner of(final String name, final int min, final int max, final int maxProbes) {
        return GridPlanner.NAME.equals(name) ? new GridPlanner(min, max, maxProbes)
                : new BisectionPlanner(min, max, maxProbes);
    }
}
