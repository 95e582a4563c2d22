package io.aiperf.engine.gate;

import io.aiperf.engine.metrics.MetricRegistry;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Applies rules to a candidate against a baseline. A candidate without the rule's metric fails the rule.
 * Absolute limits always apply; relative limits need a baseline value (none, NaN or zero makes that part
 * inactive, and says so); the noise floor and, when asked
 * for with 2+ trials on both sides, Welch's t-test keep noise from being called a regression. Stateless.
 */
public final class GateEvaluator {
    private GateEvaluator() {
    }

    public static GateResult evaluate(final List<GateRule> rules, final RunData baseline, final RunData candidate) {
        final List<RuleResult> out = new ArrayList<>();
        for (final GateRule rule : rules) {
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
                out.add(evaluate(rule, cell, baseline == null ? new double[0] : baseline.values(cell, rule.metric(), rule.stat()),
                        candidate.values(cell, rule.metric(), rule.stat())));
            }
        }
        return new GateResult(out);
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
        final String unit = unit(rule);
        final double c = cand.length == 0 ? Double.NaN : WelchTest.mean(cand);
        final double b = base.length == 0 ? Double.NaN : WelchTest.mean(base);
        if (Double.isNaN(c)) {
            // A candidate without the metric measured nothing (a dead server, a wrong endpoint): never a pass.
            return result(rule, cell, unit, b, base.length, c, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Status.FAILED, "failed: the candidate has no " + rule.title() + " (no valid request measured it)");
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
                if (rule.significance() && base.length >= 2 && cand.length >= 2) {
                    final WelchTest.Result w = WelchTest.test(base, cand);
                    p = w.pValue();
                    effect = w.effectSize();
                    if (!relative.isEmpty() && !(p < rule.alpha())) {
                        note = String.format(Locale.ROOT, "change is not significant (p=%.3g >= %.3g, %d vs %d trials)",
                                p, rule.alpha(), base.length, cand.length);
                        relative.clear();
                    }
                }
                broken.addAll(relative);
            }
        }
        final String change = Double.isNaN(b) ? fmt(c, unit)
                : fmt(b, unit) + " -> " + fmt(c, unit) + (Double.isNaN(deltaPct) ? "" : String.format(Locale.ROOT, " (%+.1f%%)", deltaPct));
        if (!broken.isEmpty()) {
            final Status status = rule.criticality() == Criticality.FAILURE ? Status.FAILED : Status.UNSTABLE;
            final String pText = Double.isNaN(p) ? "" : String.format(Locale.ROOT, "; p=%.3g, effect size d=%.2f", p, effect);
            return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, status,
                    String.join("; ", broken) + " [" + rule.title() + " " + change + pText + "]");
        }
        final boolean absolute = rule.max() != null || rule.min() != null;
        if (!absolute && !relativeChecked) {
            return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, Status.INACTIVE,
                    "inactive: " + note + " [" + rule.title() + " " + change + "]");
        }
        return result(rule, cell, unit, b, base.length, c, cand.length, delta, deltaPct, p, effect, Status.PASSED,
                "passed: " + rule.title() + " " + change + " within " + rule.limitText() + (note == null ? "" : "; " + note));
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
