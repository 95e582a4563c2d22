package io.aiperf.engine.search;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * A grid over one integer knob: {@code maxProbes} values spread evenly from min to max (every value when the range
 * is smaller), probed in ascending order, each whatever the others gave: no monotonicity is assumed. The capacity
 * is the highest value below the lowest one that did not meet the SLOs (a value that meets above a miss is not
 * served reliably). Pure.
 */
public final class GridPlanner implements Planner {
    public static final String NAME = "grid";
    private final List<Integer> values = new ArrayList<>();
    private final List<Integer> met = new ArrayList<>();
    private final List<Integer> missed = new ArrayList<>();
    private int asked;

    public GridPlanner(final int min, final int max, final int maxProbes) {
        if (min < 1 || max < min || maxProbes < 2) {
            throw new IllegalArgumentException("need 1 <= min <= max and at least 2 probes");
        }
        final int n = Math.min(maxProbes, max - min + 1);
        for (int i = 0; i < n; i++) {
            final int v = n == 1 ? min : (int) Math.round(min + (double) (max - min) * i / (n - 1));
            if (values.isEmpty() || values.get(values.size() - 1) != v) {
                values.add(v);
            }
        }
    }

    /** The grid's values, ascending. */
    public List<Integer> values() {
        return List.copyOf(values);
    }

    @Override
    public OptionalInt next() {
        return asked < values.size() ? OptionalInt.of(values.get(asked)) : OptionalInt.empty();
    }

    @Override
    public void tell(final int value, final boolean ok) {
        asked++;
        (ok ? met : missed).add(value);
    }

    @Override
    public boolean converged() {
        return asked >= values.size();
    }

    @Override
    public OptionalInt capacity() {
        final int firstMiss = lowestMissed().orElse(Integer.MAX_VALUE);
        return met.stream().mapToInt(Integer::intValue).filter(v -> v < firstMiss).max();
    }

    @Override
    public OptionalInt lowestMissed() {
        return missed.stream().mapToInt(Integer::intValue).min();
    }

    @Override
    public String name() {
        return NAME;
    }
}
