package io.aiperf.engine.gate;

import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import io.aiperf.engine.validity.Check;
import io.aiperf.engine.validity.Fingerprint;
import io.aiperf.engine.validity.Thresholds;
import io.aiperf.engine.validity.Validity;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Applies rules to a candidate against a baseline. A candidate without the rule's metric fails the rule.
 * Absolute limits always apply; relative limits need a baseline value (none or zero makes that part
 * inactive, and says so; NaN or infinite makes the rule inconclusive; a cell whose run failed or was cancelled
 * fails the candidate and makes the baseline inconclusive); the noise floor and, when asked
 * for with 2+ trials on both sides, Welch's t-test keep noise from being called a regression. Stateless.
 * <p>
 * It is over 400 lines because the outcomes above (pass, fail, unstable, inconclusive, inactive) are decided
 * together for each rule, and each needs its reason spelled out for the report.
 */
public final class GateEvaluator {
    private GateEvaluator() {
    }

    public static GateResult evaluate(final List<GateRule> rules, final RunData baseline, final RunData candidate) {
        return evaluate(new GateRules(rules, Thresholds.defaults(), null), baseline, candidate);
    }

    /**
     * Applies the rules, then withholds the verdict of every rule the runs cannot support (src-docs/validity.md):
     * an invalid run, too few samples for the rule's percentile, or a baseline from another environment make the
     * rule inconclusive, with the reasons and what to change.
     */
    public static GateResult evaluate(final GateRules gate, final RunData baseline, final RunData candidate) {
        final List<String> mismatch = baseline == null
                || baseline.anySummary() == null || candidate.anySummary() == null ? List.of()
                : gate.requireSame() == null
                ? Fingerprint.defaultDifferences(Fingerprint.of(baseline.anySummary()),
                        Fingerprint.of(candidate.anySummary()))
                : Fingerprint.differences(Fingerprint.of(baseline.anySummary()), Fingerprint.of(candidate.anySummary()),
                gate.requireSame());
        final List<RuleResult> out = new ArrayList<>();
        for (final RuleResult r : evaluateRules(gate.rules(), baseline, candidate)) {
            final RuleResult judged = judgeable(r, baseline, candidate, gate.validity(), mismatch);
            out.add(unfinished(baseline == null ? judged : ClientLateness.judge(judged, baseline.summaries(r.cell()),
                    candidate.summaries(r.cell()), gate.validity()), baseline, candidate));
        }
        return new GateResult(out);
    }

    /**
     * A candidate cell whose run failed or was cancelled fails every rule, whatever its numbers say (a run cut
     * short or above its error limit can look fast); a baseline cell that did not complete cannot support a
     * relative limit, so such a rule is inconclusive instead of silently inactive.
     */
    private static RuleResult unfinished(final RuleResult r, final RunData baseline, final RunData candidate) {
        final String cand = candidate.unfinished(r.cell());
        if (cand != null) {
            return withStatus(r, Status.FAILED, "failed: the candidate cell did not complete (" + cand + ") ["
                    + r.message() + "]");
        }
        final String base = baseline == null ? null : baseline.unfinished(r.cell());
        if (base != null && r.rule().hasRelativeLimit() && r.status() != Status.FAILED) {
            return withStatus(r, Status.INCONCLUSIVE, "inconclusive: the baseline cell did not complete (" + base
                    + "). To fix: compare against a baseline run that completed [" + r.message() + "]");
        }
        return r;
    }

    private static RuleResult withStatus(final RuleResult r, final Status status, final String message) {
        return new RuleResult(r.rule(), r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), status, message,
                r.changeLowPct(), r.changeHighPct());
    }

    private static RuleResult judgeable(final RuleResult r, final RunData baseline, final RunData candidate,
                                        final Thresholds thresholds, final List<String> mismatch) {
        if (r.status() == Status.INACTIVE || !Double.isFinite(r.candidate())) {
            return r; // nothing judged, or nothing measured: a candidate without the metric fails outright
        }
        final GateRule rule = r.rule();
        final boolean usesBaseline = rule.hasRelativeLimit() && r.baselineTrials() > 0;
        final List<String> why = new ArrayList<>();
        final java.util.Set<String> fixes = new java.util.LinkedHashSet<>();
        unjudgeable("candidate", candidate.summaries(r.cell()), rule, thresholds, why, fixes);
        if (usesBaseline && baseline != null) {
            unjudgeable("baseline", baseline.summaries(r.cell()), rule, thresholds, why, fixes);
        }
        if (usesBaseline && !mismatch.isEmpty()) {
            why.add("the baseline ran in another environment: " + String.join(", ", mismatch));
            fixes.add("compare against a baseline with the same " + String.join(", ",
                    mismatch.stream().map(m -> m.substring(0, m.indexOf(' '))).toList()));
        }
        if (why.isEmpty()) {
            return r;
        }
        return new RuleResult(rule, r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), Status.INCONCLUSIVE,
                "inconclusive: " + String.join("; ", why) + ". To fix: " + String.join("; ", fixes)
                        + " [" + r.message() + "]", r.changeLowPct(), r.changeHighPct());
    }

    /** Why the trials of one side cannot support the rule: invalid runs, or too few samples for its percentile. */
    private static void unjudgeable(final String side, final List<CellSummary> trials, final GateRule rule,
                                    final Thresholds thresholds, final List<String> why,
                                    final java.util.Set<String> fixes) {
        for (final CellSummary summary : trials) {
            for (final Check c : Validity.evaluate(summary, thresholds).problems()) {
                if (c.result() == io.aiperf.engine.validity.Result.INVALID) {
                    final String reason = side + " run invalid (" + c.name() + "): " + c.message();
                    if (!why.contains(reason)) {
                        why.add(reason);
                    }
                    fixes.add(c.fix());
                }
            }
            if (rule.stat().matches("p\\d+")) {
                final double q = Double.parseDouble(rule.stat().substring(1));
                final double samples = summary.stat(rule.metric(), SummaryCodec.COUNT);
                final long count = Double.isNaN(samples) ? -1 : (long) samples;
                final long needed = Validity.minimumSamples(q);
                if (count >= 0 && count < needed) {
                    final String reason = String.format(Locale.ROOT, "%s %s of %s comes from %d samples; it needs "
                            + "at least %d to be more than the maximum", side, rule.stat(), rule.metric(), count, needed);
                    if (!why.contains(reason)) {
                        why.add(reason);
                    }
                    fixes.add("more requests (--request-count) or a lower percentile in the rule");
                }
            }
        }
    }

    private static List<RuleResult> evaluateRules(final List<GateRule> rules, final RunData baseline,
                                                  final RunData candidate) {
        final List<RuleResult> out = new ArrayList<>();
        final java.util.Map<Path, RequestSamples> samples = new java.util.HashMap<>();
        for (final GateRule rule : rules) {
            if (rule.capacity()) {
                out.add(CapacityRule.evaluate(rule, baseline, candidate));
                continue;
            }
            final List<String> cells = candidate.cells().stream().filter(c -> matches(rule.cell(), c)).toList();
            if (candidate.cells().isEmpty()) {
                out.add(new RuleResult(rule, RunData.BASE_CELL, unit(rule), Double.NaN, 0, Double.NaN, 0, Double.NaN,
                        Double.NaN, Double.NaN, Double.NaN, Status.FAILED, "failed: the candidate has no cell"));
            } else if (cells.isEmpty()) {
                out.add(new RuleResult(rule, rule.cell() == null ? RunData.BASE_CELL : rule.cell(), unit(rule),
                        Double.NaN, 0, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Status.INACTIVE,
                        "inactive: no candidate cell matches '" + rule.cell() + "'"));
            }
            for (final String cell : cells) {
                final double[] base = baseline == null ? new double[0] : baseline.values(cell, rule.metric(), rule.stat());
                final double[] cand = candidate.values(cell, rule.metric(), rule.stat());
                // One trial per side: two single numbers cannot tell noise from a change; their requests can.
                final RequestComparison.Outcome requests = rule.hasRelativeLimit() && base.length == 1
                        && cand.length == 1 ? RequestComparison.of(rule, cell, baseline, candidate, samples) : null;
                out.add(withInterval(MissingMetric.explain(evaluate(rule, cell, base, cand, requests),
                        candidate.summaries(cell)), base, cand, requests));
            }
        }
        return out;
    }

    /**
     * The result with the confidence interval of its change, for reports: the requests' bootstrap interval with one
     * trial per side, Welch's interval of the difference of the means with 2+ trials per side.
     */
    static RuleResult withInterval(final RuleResult r, final double[] base, final double[] cand,
                                   final RequestComparison.Outcome requests) {
        if (requests != null && requests.comparison() != null) {
            return r.withInterval(requests.comparison().result().lowPct(), requests.comparison().result().highPct());
        }
        if (base.length < 2 || cand.length < 2 || !allFinite(base) || !allFinite(cand)) {
            return r;
        }
        final double mb = WelchTest.mean(base);
        if (mb == 0) {
            return r;
        }
        final double sb = WelchTest.variance(base, mb) / base.length;
        final double sc = WelchTest.variance(cand, WelchTest.mean(cand)) / cand.length;
        final double diff = WelchTest.mean(cand) - mb;
        if (sb + sc == 0) {
            return r.withInterval(diff / Math.abs(mb) * 100, diff / Math.abs(mb) * 100);
        }
        final double df = (sb + sc) * (sb + sc) / (sb * sb / (base.length - 1) + sc * sc / (cand.length - 1));
        final double half = io.aiperf.engine.math.SpecialFunctions.studentTQuantile(1 - r.rule().alpha() / 2, df)
                * Math.sqrt(sb + sc);
        return r.withInterval((diff - half) / Math.abs(mb) * 100, (diff + half) / Math.abs(mb) * 100);
    }

    static boolean matches(final String glob, final String cell) {
        if (glob == null || glob.equals("*")) {
            return true;
        }
        final PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        return m.matches(Path.of(cell));
    }

    /** One rule on one cell, from the per-trial values of each side. */
    public static RuleResult evaluate(final GateRule rule, final String cell, final double[] base, final double[] cand) {
        return evaluate(rule, cell, base, cand, null);
    }

    /**
     * One rule on one cell; with {@code requests} (one trial per side) the relative limits are judged on the
     * requests' confidence interval, and the values are the statistic of the requests without their start-up.
     */
    static RuleResult evaluate(final GateRule rule, final String cell, final double[] base, final double[] cand,
                               final RequestComparison.Outcome requests) {
        final String unit = unit(rule);
        final RequestComparison sampled = requests == null ? null : requests.comparison();
        final double c = cand.length == 0 ? Double.NaN : sampled != null ? sampled.result().candidate() : WelchTest.mean(cand);
        final double b = base.length == 0 ? Double.NaN : sampled != null ? sampled.result().baseline() : WelchTest.mean(base);
        if (Double.isNaN(c)) {
            // A candidate without the metric measured nothing (a dead server, a wrong endpoint): never a pass.
            return result(rule, cell, unit, b, base.length, c, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Status.FAILED, "failed: the candidate has no " + rule.title() + " (no valid request measured it)");
        }
        if (!allFinite(cand)) {
            return result(rule, cell, unit, b, base.length, c, cand.length, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Status.FAILED, "failed: the candidate's " + rule.title() + " is not a finite number ("
                            + fmt(c, unit) + ")");
        }
        if (rule.hasRelativeLimit() && !allFinite(base)) {
            return result(rule, cell, unit, b, base.length, c, cand.length, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Status.INCONCLUSIVE, "inconclusive: the baseline's " + rule.title() + " is not a "
                            + "finite number (" + fmt(b, unit) + "). To fix: compare against a baseline with a "
                            + "measured value");
        }
        final List<String> broken = new ArrayList<>();
        if (rule.max() != null && c > rule.max()) {
            broken.add(rule.title() + " is " + fmt(c, unit) + ", above the limit " + fmt(rule.max(), unit));
        }
        if (rule.min() != null && c < rule.min()) {
            broken.add(rule.title() + " is " + fmt(c, unit) + ", below the limit " + fmt(rule.min(), unit));
        }
        final double delta = c - b;
        final double deltaPct = Double.isNaN(b) || b == 0 ? Double.NaN : delta / Math.abs(b) * 100.0;
        String note = null;
        final String evidence = sampled == null ? null : sampled.describe() + (rule.significance()
                ? "; significance: one trial per side, so the requests were compared (Welch's t-test needs 2+ trials)"
                : "");
        double p = Double.NaN;
        double effect = Double.NaN;
        boolean relativeChecked = false;
        if (rule.hasRelativeLimit()) {
            if (Double.isNaN(b)) {
                note = "no baseline value, relative limit not checked";
            } else if (b == 0) {
                note = "baseline is 0, relative limit not applicable";
            } else {
                relativeChecked = true;
                final List<String> relative = relativeViolations(rule, b, c, deltaPct, unit);
                if (!relative.isEmpty() && rule.noiseFloor() != null && Math.abs(delta) < rule.noiseFloor()) {
                    note = "change of " + fmt(Math.abs(delta), unit) + " is below the noise floor " + fmt(rule.noiseFloor(), unit);
                    relative.clear();
                }
                if (sampled != null) {
                    p = sampled.result().pValue();
                    effect = sampled.result().effectSize();
                    if (note != null) {
                        relative.clear(); // under the noise floor
                    } else if (!relative.isEmpty() && !sampled.beyond(rule)) {
                        // Past the limit as measured, but not the whole interval: no failure on this evidence.
                        if (!sampled.significant() && !sampled.shifted(deltaPct)) {
                            note = "the change is not significant: " + evidence;
                            relative.clear();
                        } else {
                            return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p,
                                    effect, Status.INCONCLUSIVE, "inconclusive: " + rule.title() + " " + fmt(b, unit)
                                            + " -> " + fmt(c, unit) + String.format(Locale.ROOT, " (%+.1f%%)", deltaPct)
                                            + " is a real change (" + sampled.describeRanks() + ") but these requests "
                                            + "cannot say whether it is past " + rule.limitText(unit) + ": "
                                            + evidence + ". To fix: more requests (--request-count), a lower "
                                            + "percentile in the rule, or 2+ trials per side (--num-profile-runs) "
                                            + "with significance: true");
                        }
                    }
                } else if (rule.significance() && base.length >= 2 && cand.length >= 2) {
                    final WelchTest.Result w = WelchTest.test(base, cand);
                    p = w.pValue();
                    effect = w.effectSize();
                    final String straddle = note == null ? straddle(rule, b, base, cand) : null;
                    if (straddle != null) {
                        return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect,
                                Status.INCONCLUSIVE, "inconclusive: " + straddle + ". To fix: more trials "
                                        + "(--num-profile-runs) on both sides, or a quieter machine");
                    }
                    if (!relative.isEmpty() && !(p < rule.alpha())) {
                        note = String.format(Locale.ROOT, "change is not significant (p=%.3g >= %.3g, %d vs %d trials)",
                                p, rule.alpha(), base.length, cand.length);
                        relative.clear();
                    }
                }
                if (sampled == null && rule.significance() && (base.length < 2 || cand.length < 2)) {
                    final String plain = String.format(Locale.ROOT, "significance: Welch's t-test needs 2+ trials "
                            + "per side (here %d and %d)%s, so the values were compared as they are", base.length,
                            cand.length, requests == null ? "" : ", and the requests could not be compared instead ("
                                    + requests.unavailable() + ")");
                    note = note == null ? plain : note + "; " + plain;
                }
                broken.addAll(relative);
            }
        }
        final String change = Double.isNaN(b) ? fmt(c, unit)
                : fmt(b, unit) + " -> " + fmt(c, unit) + (Double.isNaN(deltaPct) ? "" : String.format(Locale.ROOT, " (%+.1f%%)", deltaPct));
        if (!broken.isEmpty()) {
            final Status status = rule.criticality() == Criticality.FAILURE ? Status.FAILED : Status.UNSTABLE;
            final String pText = evidence != null ? "; " + evidence
                    : Double.isNaN(p) ? "" : String.format(Locale.ROOT, "; p=%.3g, effect size d=%.2f", p, effect);
            // A relative violation already states the change; an absolute one gets it once, in brackets.
            final boolean changeSaid = broken.stream().anyMatch(v -> v.startsWith(rule.title() + " changed from"));
            return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, status,
                    String.join("; ", broken) + (changeSaid ? pText : " [" + rule.title() + " " + change + pText + "]")
                            + (note == null ? "" : "; " + note));
        }
        final boolean absolute = rule.max() != null || rule.min() != null;
        if (!absolute && !relativeChecked) {
            return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, Status.INACTIVE,
                    "inactive: " + note + " [" + rule.title() + " " + change + "]");
        }
        return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, Status.PASSED,
                "passed: " + rule.title() + " " + change + " within " + rule.limitText(unit)
                        + (note != null ? "; " + note : evidence != null ? "; " + evidence : ""));
    }

    /**
     * Whether the confidence interval of the change (Welch, at the rule's alpha) holds both a pass and a failure of a
     * relative limit: then the trials cannot tell, and the rule says so instead of guessing. Null when it does not.
     */
    static String straddle(final GateRule rule, final double b, final double[] base, final double[] cand) {
        final double vb = WelchTest.variance(base, WelchTest.mean(base)) / base.length;
        final double vc = WelchTest.variance(cand, WelchTest.mean(cand)) / cand.length;
        final double se = Math.sqrt(vb + vc);
        if (!(se > 0)) {
            return null;
        }
        final double df = (vb + vc) * (vb + vc) / (vb * vb / (base.length - 1) + vc * vc / (cand.length - 1));
        final double t = io.aiperf.engine.math.SpecialFunctions.studentTQuantile(1 - rule.alpha() / 2, df);
        final double delta = WelchTest.mean(cand) - WelchTest.mean(base);
        final double lo = (delta - t * se) / Math.abs(b) * 100;
        final double hi = (delta + t * se) / Math.abs(b) * 100;
        final String ci = String.format(Locale.ROOT, "the %.0f%% confidence interval of the change, [%+.1f%%, %+.1f%%] "
                + "from %d and %d trials,", (1 - rule.alpha()) * 100, lo, hi, base.length, cand.length);
        if (rule.maxIncreasePct() != null && lo < rule.maxIncreasePct() && rule.maxIncreasePct() < hi) {
            return ci + " straddles the +" + Numbers.plain(rule.maxIncreasePct()) + "% limit";
        }
        if (rule.maxDecreasePct() != null && -hi < rule.maxDecreasePct() && rule.maxDecreasePct() < -lo) {
            return ci + " straddles the -" + Numbers.plain(rule.maxDecreasePct()) + "% limit";
        }
        if (rule.maxRegressionPct() != null) {
            final double r1 = rule.direction().regression(0, lo);
            final double r2 = rule.direction().regression(0, hi);
            if (Math.min(r1, r2) < rule.maxRegressionPct() && rule.maxRegressionPct() < Math.max(r1, r2)) {
                return ci + " straddles the " + Numbers.plain(rule.maxRegressionPct()) + "% regression limit";
            }
        }
        return null;
    }

    private static boolean allFinite(final double[] values) {
        for (final double v : values) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> relativeViolations(final GateRule rule, final double b, final double c,
                                                   final double deltaPct, final String unit) {
        final List<String> out = new ArrayList<>();
        final String change = rule.title() + " changed from " + fmt(b, unit) + " to " + fmt(c, unit)
                + String.format(Locale.ROOT, " (%+.1f%%)", deltaPct);
        if (rule.maxIncreasePct() != null && deltaPct > rule.maxIncreasePct()) {
            out.add(change + ", above the +" + Numbers.plain(rule.maxIncreasePct()) + "% limit");
        }
        if (rule.maxDecreasePct() != null && -deltaPct > rule.maxDecreasePct()) {
            out.add(change + ", below the -" + Numbers.plain(rule.maxDecreasePct()) + "% limit");
        }
        if (rule.maxRegressionPct() != null) {
            final double regressionPct = rule.direction().regression(b, c) / Math.abs(b) * 100.0;
            if (regressionPct > rule.maxRegressionPct()) {
                out.add(change + ", a " + String.format(Locale.ROOT, "%.1f", regressionPct) + "% regression ("
                        + rule.direction().name().toLowerCase(Locale.ROOT).replace('_', ' ') + "), above the "
                        + Numbers.plain(rule.maxRegressionPct()) + "% limit");
            }
        }
        return out;
    }

    private static RuleResult result(final GateRule rule, final String cell, final String unit, final double b,
                                     final int bn, final double c, final int cn, final double delta,
                                     final double deltaPct, final double p, final double effect, final Status status,
                                     final String message) {
        return new RuleResult(rule, cell, unit, b, bn, c, cn, delta, deltaPct, p, effect, status, message);
    }

    private static String unit(final GateRule rule) {
        final var spec = MetricRegistry.byTag(rule.metric());
        return spec == null ? "" : spec.unit();
    }

    static String fmt(final double v, final String unit) {
        return Numbers.plain(v) + (unit.isEmpty() ? "" : " " + unit);
    }
}
