package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A relative rule with one trial per side, judged on the requests of both trials instead of two single numbers
 * (src-docs/gating.md, "One trial per side"): the bootstrap confidence interval of the statistic's change says
 * whether the change is real and whether it lies past the limit. Immutable.
 *
 * @param baselineExcluded start-up requests of the baseline left out (see {@link RequestSamples})
 */
record RequestComparison(BootstrapComparison.Result result, int baselineExcluded, int candidateExcluded,
                         double alpha) {
    /** Where the confidence interval of the change lies against the rule's relative limits. */
    enum Against { BEYOND, WITHIN, STRADDLES }

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
                b.excluded(), c.excluded(), rule.alpha()), null);
    }

    private static RequestSamples samples(final RunData run, final String cell, final Map<Path, RequestSamples> cache) {
        final List<Path> files = run.records(cell);
        final List<JsonNode> summaries = run.summaries(cell);
        if (files.size() != 1 || summaries.size() != 1) {
            return null;
        }
        final boolean warmedUp = summaries.get(0).has("warmup_metrics");
        return cache.computeIfAbsent(files.get(0).toAbsolutePath().normalize(), f -> RequestSamples.read(f, warmedUp));
    }

    /** Where the interval lies: past a limit, inside every limit, or across one. */
    Against against(final GateRule rule) {
        final double lo = result.lowPct();
        final double hi = result.highPct();
        boolean within = true;
        if (rule.maxIncreasePct() != null) {
            if (lo > rule.maxIncreasePct()) {
                return Against.BEYOND;
            }
            within &= hi <= rule.maxIncreasePct();
        }
        if (rule.maxDecreasePct() != null) {
            if (-hi > rule.maxDecreasePct()) {
                return Against.BEYOND;
            }
            within &= -lo <= rule.maxDecreasePct();
        }
        if (rule.maxRegressionPct() != null) {
            final boolean lowerIsBetter = rule.direction() == Direction.LOWER_IS_BETTER;
            final double worstLo = lowerIsBetter ? lo : -hi;
            final double worstHi = lowerIsBetter ? hi : -lo;
            if (worstLo > rule.maxRegressionPct()) {
                return Against.BEYOND;
            }
            within &= worstHi <= rule.maxRegressionPct();
        }
        return within ? Against.WITHIN : Against.STRADDLES;
    }

    boolean significant() {
        return result.significant(alpha);
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
