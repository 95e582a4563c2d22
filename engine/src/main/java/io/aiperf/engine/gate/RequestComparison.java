package io.aiperf.engine.gate;

import io.aiperf.engine.summary.CellSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A relative rule with one trial per side, judged on the requests of both trials instead of two single numbers
 * (src-docs/gating.md, "One trial per side"): the bootstrap confidence interval of the statistic's change says
 * whether the change is real and whether it lies past the limit; the rank test, whether the requests moved at all when
 * the statistic alone cannot tell (a tail set by a few pauses). Immutable.
 *
 * @param baselineExcluded start-up requests of the baseline left out (see {@link RequestSamples})
 */
record RequestComparison(BootstrapComparison.Result result, RankTest.Result rank, int baselineExcluded,
                         int candidateExcluded, double alpha) {
    /** A comparison, or why there is none. */
    record Outcome(RequestComparison comparison, String unavailable) {
    }

    /** The fewest requests per side the bootstrap is asked to judge. */
    static final int MIN_REQUESTS = 10;

    /**
     * The comparison of {@code rule} in {@code cell} when both sides have exactly one trial with its records.
     *
     * @param cache records already read in this gate, by file
     */
    static Outcome of(final GateRule rule, final String cell, final RunData baseline, final RunData candidate,
                      final Map<Path, RequestSamples> cache) {
        if (!BootstrapComparison.supports(rule.stat())) {
            return new Outcome(null, "the requests are compared only for avg and percentiles, not " + rule.stat());
        }
        final RequestSamples b = samples(baseline, cell, cache);
        final RequestSamples c = samples(candidate, cell, cache);
        if (b == null || c == null) {
            return new Outcome(null, "no per-request records (profile_export.jsonl) beside the "
                    + (b == null ? "baseline" : "candidate") + "'s summary");
        }
        final double[] bv = b.values(rule.metric());
        final double[] cv = c.values(rule.metric());
        if (bv.length == 0 && cv.length == 0) {
            return new Outcome(null, rule.metric() + " is a run-level value, not measured per request");
        }
        if (bv.length < MIN_REQUESTS || cv.length < MIN_REQUESTS) {
            return new Outcome(null, String.format(Locale.ROOT, "%d and %d requests measured %s, fewer than %d",
                    bv.length, cv.length, rule.metric(), MIN_REQUESTS));
        }
        return new Outcome(new RequestComparison(BootstrapComparison.compare(bv, cv, rule.stat(), rule.alpha()),
                RankTest.test(bv, cv), b.excluded(), c.excluded(), rule.alpha()), null);
    }

    private static RequestSamples samples(final RunData run, final String cell, final Map<Path, RequestSamples> cache) {
        final List<Path> files = run.records(cell);
        final List<CellSummary> summaries = run.summaries(cell);
        if (files.size() != 1 || summaries.size() != 1) {
            return null;
        }
        final boolean warmedUp = summaries.get(0).warmup() != null;
        return cache.computeIfAbsent(files.get(0).toAbsolutePath().normalize(), f -> RequestSamples.read(f, warmedUp));
    }

    /** Whether the whole confidence interval of the change lies past one of the rule's relative limits. */
    boolean beyond(final GateRule rule) {
        final double lo = result.lowPct();
        final double hi = result.highPct();
        if (rule.maxIncreasePct() != null && lo > rule.maxIncreasePct()) {
            return true;
        }
        if (rule.maxDecreasePct() != null && -hi > rule.maxDecreasePct()) {
            return true;
        }
        // the regression's interval: the change itself when lower is better, its opposite when higher is
        final double worstLo = rule.direction() == Direction.LOWER_IS_BETTER ? lo : -hi;
        return rule.maxRegressionPct() != null && worstLo > rule.maxRegressionPct();
    }

    boolean significant() {
        return result.significant(alpha);
    }

    /**
     * Whether the requests as a whole moved the way {@code changePct} says (the rank test rejects "no shift" at alpha),
     * though the statistic's own interval could not tell: then a change the statistic cannot size is still real.
     */
    boolean shifted(final double changePct) {
        return rank.pValue() < alpha && (rank.superiority() > 0.5) == (changePct > 0);
    }

    /** The rank test in words. */
    String describeRanks() {
        return String.format(Locale.ROOT, "rank test p=%.3g; a candidate request is larger than a baseline one "
                + "%.0f%% of the time", rank.pValue(), rank.superiority() * 100);
    }

    /** The evidence in words, e.g. "95% CI of the change [+88.0%, +101.2%] over 196 and 196 requests, ...". */
    String describe() {
        return String.format(Locale.ROOT, "%.0f%% CI of the change [%+.1f%%, %+.1f%%] over %d and %d requests "
                        + "(bootstrap, %d resamples%s), p=%.3g, effect size d=%.2f", (1 - alpha) * 100, result.lowPct(),
                result.highPct(), result.baselineCount(), result.candidateCount(), result.resamples(), startUp(),
                result.pValue(), result.effectSize());
    }

    private String startUp() {
        return baselineExcluded == 0 && candidateExcluded == 0 ? ""
                : "; start-up left out: the first wave, " + baselineExcluded + " and " + candidateExcluded + " requests";
    }
}
