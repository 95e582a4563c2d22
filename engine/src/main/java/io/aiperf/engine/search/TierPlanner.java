package io.aiperf.engine.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Upstream AIPerf's multi-tier search (--search-sla-tier, src-docs/capacity.md "SLA tiers"): one planner (bisection
 * or grid) per tier, each finding its tier's capacity, sharing the probed points: a value one tier asks for that
 * another already probed is answered from that probe, with no new cells. The budget of points is shared. The
 * capacity is the most lenient tier's (the highest), as upstream's boundary summary. Not thread-safe; pure.
 */
final class TierPlanner implements Planner {
    private final List<Planner> tiers = new ArrayList<>();
    private final Map<Integer, List<Boolean>> probed = new HashMap<>();
    private final int maxProbes;

    TierPlanner(final String planner, final int min, final int max, final int maxProbes, final int tierCount) {
        for (int i = 0; i < tierCount; i++) {
            tiers.add(Planner.of(planner, min, max, maxProbes));
        }
        this.maxProbes = maxProbes;
    }

    @Override
    public OptionalInt next() {
        boolean answered = true;
        while (answered) {
            answered = false;
            for (int i = 0; i < tiers.size(); i++) {
                final OptionalInt v = tiers.get(i).next();
                if (v.isEmpty()) {
                    continue;
                }
                final List<Boolean> known = probed.get(v.getAsInt());
                if (known == null) {
                    return probed.size() >= maxProbes ? OptionalInt.empty() : v;
                }
                tiers.get(i).tell(v.getAsInt(), known.get(i)); // already probed for another tier
                answered = true;
            }
        }
        return OptionalInt.empty();
    }

    /** Not used: a tier search is told each tier's verdict with {@link #tell(int, List)}. */
    @Override
    public void tell(final int value, final boolean met) {
        tell(value, java.util.Collections.nCopies(tiers.size(), met));
    }

    /** The outcome of probing {@code value}: whether it met each tier's SLOs, in tier order. */
    void tell(final int value, final List<Boolean> metByTier) {
        probed.put(value, List.copyOf(metByTier));
        for (int i = 0; i < tiers.size(); i++) {
            final OptionalInt asked = tiers.get(i).next();
            if (asked.isPresent() && asked.getAsInt() == value) { // the others read it from the probes when they ask
                tiers.get(i).tell(value, metByTier.get(i));
            }
        }
    }

    @Override
    public boolean converged() {
        return tiers.stream().allMatch(Planner::converged);
    }

    @Override
    public OptionalInt capacity() {
        return tiers.stream().map(Planner::capacity).filter(OptionalInt::isPresent).mapToInt(OptionalInt::getAsInt)
                .max();
    }

    /** The lowest value the most lenient tier did not meet, or empty. */
    @Override
    public OptionalInt lowestMissed() {
        return lenient().lowestMissed();
    }

    /** Each tier's planner, in tier order. */
    List<Planner> tiers() {
        return List.copyOf(tiers);
    }

    private Planner lenient() {
        Planner best = tiers.get(tiers.size() - 1);
        for (final Planner p : tiers) {
            if (p.capacity().isPresent() && (best.capacity().isEmpty()
                    || p.capacity().getAsInt() > best.capacity().getAsInt())) {
                best = p;
            }
        }
        return best;
    }

    @Override
    public String name() {
        return tiers.get(0).name();
    }
}
