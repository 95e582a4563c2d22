package io.aiperf.engine.search;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Bisection on one monotone integer knob (concurrency): meeting the SLOs at a value means meeting them at every
 * lower one. Probes the lower bound (nothing is met if it is not), then the upper bound (everything is), then
 * halves the gap between the highest value that met and the lowest that did not, until they are one step apart or
 * the probe budget is spent. Ask with {@link #next}, answer with {@link #tell}. Not thread-safe; pure.
 */
public final class BisectionPlanner implements Planner {
    public static final String NAME = "bisection";
    private final int min;
    private final int max;
    private final int maxProbes;
    private final List<Integer> path = new ArrayList<>();
    private Integer highestMet;
    private Integer lowestMissed;

    /**
     * @param maxProbes the most points to probe (at least 2)
     */
    public BisectionPlanner(final int min, final int max, final int maxProbes) {
        if (min < 1 || max < min || maxProbes < 2) {
            throw new IllegalArgumentException("need 1 <= min <= max and at least 2 probes");
        }
        this.min = min;
        this.max = max;
        this.maxProbes = maxProbes;
    }

    /** The next value to probe, or empty when the search is over. */
    @Override
    public OptionalInt next() {
        if (path.size() >= maxProbes || converged()) {
            return OptionalInt.empty();
        }
        if (highestMet == null && lowestMissed == null) {
            return OptionalInt.of(min);
        }
        if (lowestMissed == null) {
            return OptionalInt.of(max);
        }
        return OptionalInt.of(highestMet + (lowestMissed - highestMet) / 2);
    }

    /** The outcome of probing {@code value}: whether it met the SLOs. */
    @Override
    public void tell(final int value, final boolean met) {
        path.add(value);
        if (met && (highestMet == null || value > highestMet)) {
            highestMet = value;
        }
        if (!met && (lowestMissed == null || value < lowestMissed)) {
            lowestMissed = value;
        }
    }

    /** Whether the boundary is found: the lower bound missed, the upper bound met, or met and missed adjacent. */
    @Override
    public boolean converged() {
        if (lowestMissed != null && lowestMissed <= min) {
            return true;
        }
        if (highestMet != null && highestMet >= max) {
            return true;
        }
        return highestMet != null && lowestMissed != null && lowestMissed - highestMet <= 1;
    }

    /** The highest value probed that met the SLOs, or empty when none did. */
    @Override
    public OptionalInt capacity() {
        return highestMet == null ? OptionalInt.empty() : OptionalInt.of(highestMet);
    }

    /** The lowest value probed that missed, or empty when none did. */
    @Override
    public OptionalInt lowestMissed() {
        return lowestMissed == null ? OptionalInt.empty() : OptionalInt.of(lowestMissed);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The values probed, in order. */
    public List<Integer> path() {
        return List.copyOf(path);
    }
}
