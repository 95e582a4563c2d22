package io.aiperf.engine.gate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A rule on the capacity a search found (src-docs/capacity.md, "Gate on capacity"), from each side's
 * {@code search_result.json}. The limits are judged as on any metric ({@link GateEvaluator#evaluate}), at both ends
 * of each side's capacity bounds: a boundary the search left open (probes spent, a point inconclusive) passes only
 * when every end passes and fails only when every end fails; otherwise the rule is inconclusive. A candidate
 * without a finished search fails; a baseline without one, or searched another way, makes a relative limit
 * inconclusive. Stateless.
 */
final class CapacityRule {
    /** The cell label of capacity results: the directory the probed points live in. */
    static final String CELL = "search";

    private CapacityRule() {
    }

    static RuleResult evaluate(final GateRule rule, final RunData baseline, final RunData candidate) {
        final List<SearchOutcome> cands = candidate.searches();
        if (cands.isEmpty()) {
            return failed(rule, "failed: the candidate ran no capacity search (no search_result.json); run it with "
                    + "--search-recipe max-throughput-ttft-sla or --search-space and --search-sla");
        }
        final SearchOutcome c = cands.get(0);
        if (!c.finished()) {
            return failed(rule, "failed: the candidate's capacity search did not finish (" + c.status() + ")");
        }
        final List<SearchOutcome> bases = baseline == null ? List.of() : baseline.searches();
        final List<String> why = new ArrayList<>();
        final Set<String> fixes = new LinkedHashSet<>();
        if (rule.hasRelativeLimit() && baseline != null) {
            if (bases.isEmpty()) {
                why.add("the baseline ran no capacity search (no search_result.json)");
                fixes.add("compare against a baseline run with the same search");
            }
            for (final SearchOutcome b : bases) {
                if (!b.finished()) {
                    why.add("the baseline's capacity search did not finish (" + b.status() + ")");
                    fixes.add("compare against a baseline whose search finished");
                } else if (!b.describe().equals(c.describe())) {
                    why.add("the baseline searched " + b.describe() + ", the candidate " + c.describe());
                    fixes.add("search both with the same knob, range and SLOs");
                }
            }
        }
        final boolean usable = why.isEmpty() && !bases.isEmpty();
        final double[] baseLow = usable ? new double[] {bases.stream().mapToInt(SearchOutcome::low).average().orElseThrow()}
                : new double[0];
        final double[] baseHigh = usable ? new double[] {bases.stream().mapToInt(SearchOutcome::high).average().orElseThrow()}
                : new double[0];
        final RuleResult atCapacity = GateEvaluator.evaluate(rule, CELL, baseLow, new double[] {c.low()});
        final List<RuleResult> ends = List.of(atCapacity, GateEvaluator.evaluate(rule, CELL, baseLow, new double[] {c.high()}),
                GateEvaluator.evaluate(rule, CELL, baseHigh, new double[] {c.low()}),
                GateEvaluator.evaluate(rule, CELL, baseHigh, new double[] {c.high()}));
        final String bounds = "candidate capacity " + c.capacityText() + (usable ? ", baseline "
                + bases.stream().map(SearchOutcome::capacityText).toList().toString().replaceAll("[\\[\\]]", "") : "")
                + " (" + c.knob() + ")";
        final boolean failedSomewhere = ends.stream().anyMatch(r -> bad(r.status()));
        if (!why.isEmpty()) {
            if (failedAbsolute(rule, c)) {
                return with(atCapacity, atCapacity.status(), atCapacity.message() + "; " + bounds);
            }
            return with(atCapacity, Status.INCONCLUSIVE, "inconclusive: " + String.join("; ", why) + ". To fix: "
                    + String.join("; ", fixes) + " [" + bounds + "]");
        }
        if (failedSomewhere && !ends.stream().allMatch(r -> bad(r.status()))) {
            return with(atCapacity, Status.INCONCLUSIVE, "inconclusive: the search left the boundary open ("
                    + bounds + "), and the rule passes at one end of it and fails at the other: " + atCapacity.message()
                    + ". To fix: more points (--search-max-iterations) or more trials near the SLO "
                    + "(--search-trials-max)");
        }
        return with(atCapacity, atCapacity.status(), atCapacity.message() + "; " + bounds);
    }

    /** Whether an absolute limit fails at every end of the candidate's bounds: no baseline can change that. */
    private static boolean failedAbsolute(final GateRule rule, final SearchOutcome c) {
        return rule.min() != null && c.high() < rule.min() || rule.max() != null && c.low() > rule.max();
    }

    private static boolean bad(final Status s) {
        return s == Status.FAILED || s == Status.UNSTABLE;
    }

    private static RuleResult failed(final GateRule rule, final String message) {
        return new RuleResult(rule, CELL, "", Double.NaN, 0, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Status.FAILED, message);
    }

    private static RuleResult with(final RuleResult r, final Status status, final String message) {
        return new RuleResult(r.rule(), r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), status, message);
    }
}
