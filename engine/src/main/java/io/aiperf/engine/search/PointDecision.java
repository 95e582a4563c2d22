package io.aiperf.engine.search;

import io.aiperf.engine.gate.RequestSamples;
import io.aiperf.engine.validity.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The decision on a probed point from its trials so far (src-docs/capacity.md, "The boundary is a decision"). A
 * point with a failed trial is failed and one with an invalid trial is invalid: neither ever counts as meeting the
 * SLOs. Otherwise each SLO is judged on the requests of all its trials ({@link SloJudgement}): the point misses when
 * one SLO misses at the confidence, meets when all meet at it, and is inconclusive while an interval holds a
 * threshold (the caller then runs another trial, if its budget allows). Stateless.
 */
final class PointDecision {
    private PointDecision() {
    }

    static ProbedPoint decide(final SearchSpec spec, final int order, final int value, final String path,
                              final List<Trial> trials) {
        final List<Double> values = new ArrayList<>();
        for (int i = 0; i < spec.slas().size(); i++) {
            final int k = i;
            values.add(trials.stream().mapToDouble(t -> t.values().get(k)).average().orElse(Double.NaN));
        }
        final String validity = worstValidity(trials);
        final double throughput = trials.stream().mapToDouble(Trial::throughput).average().orElse(Double.NaN);
        final Trial failed = trials.stream().filter(t -> t.error() != null).findFirst().orElse(null);
        if (failed != null) {
            return point(order, value, path, ProbedPoint.Decision.FAILED, validity, values, throughput, trials,
                    List.of(), "trial " + failed.trial() + " failed: " + failed.error());
        }
        if (Result.INVALID.wireName().equals(validity)) {
            return point(order, value, path, ProbedPoint.Decision.INVALID, validity, values, throughput, trials,
                    List.of(), "validity invalid: the measurement cannot be trusted (validity.md in the docs), so it "
                            + "never counts as meeting the SLOs");
        }
        // A client short of CPU sent late and stamped late: its trial is set aside (and another run, if the budget
        // allows), and a point with no other trial never meets the SLOs.
        final List<Trial> usable = trials.stream().filter(t -> !t.clientLimited(spec.maxClientLateness())).toList();
        if (usable.isEmpty()) {
            return point(order, value, path, ProbedPoint.Decision.INVALID, validity, values, throughput, trials,
                    List.of(), String.format(Locale.ROOT, "client-limited: in every trial the client's timer "
                            + "wake-ups were late by more than %s ms (p99, worst %.1f ms), so it was short of CPU and "
                            + "neither its timestamps nor its load can be trusted; it never counts as meeting the SLOs. "
                            + "To fix: run the client on a machine (or agent) with idle cores",
                            Sla.num(spec.maxClientLateness()),
                            trials.stream().mapToDouble(Trial::lateness).max().orElse(Double.NaN)));
        }
        final List<Double> used = new ArrayList<>();
        for (int i = 0; i < spec.slas().size(); i++) {
            final int k = i;
            used.add(usable.stream().mapToDouble(t -> t.values().get(k)).average().orElse(Double.NaN));
        }
        final List<SloJudgement> judged = new ArrayList<>();
        for (int i = 0; i < spec.slas().size(); i++) {
            final Sla sla = spec.slas().get(i);
            final double[] requests = requests(sla.metric(), usable);
            if (pooled(spec, sla.stat()) && requests.length > 0) {
                used.set(i, pooledStat(requests, sla.stat()));
            }
            judged.add(SloJudgement.of(sla, used.get(i), requests, spec.confidence(), spec.boundaryBand()));
        }
        values.clear();
        values.addAll(used);
        final List<String> missed = new ArrayList<>();
        final List<String> unsure = new ArrayList<>();
        for (final SloJudgement j : judged) {
            if (j.verdict() == SloJudgement.Verdict.MISSES) {
                missed.add(j.sla().spec() + (Double.isNaN(j.value()) ? " (no value)" : " (was " + fmt(j.value())
                        + (j.byValue() ? "" : ", " + interval(spec, j)) + ")"));
            } else if (j.verdict() == SloJudgement.Verdict.UNSURE) {
                unsure.add(j.sla().spec() + ": " + fmt(j.value()) + ", margin " + String.format(Locale.ROOT, "%+.0f%%",
                        100 * j.sla().margin(j.value())) + ", but " + interval(spec, j) + " holds the threshold");
            }
        }
        if (!missed.isEmpty()) {
            return point(order, value, path, ProbedPoint.Decision.MISSES, validity, values, throughput, trials,
                    judged, "missed " + String.join(", ", missed));
        }
        if (!unsure.isEmpty()) {
            return point(order, value, path, ProbedPoint.Decision.INCONCLUSIVE, validity, values, throughput,
                    trials, judged, String.format(Locale.ROOT, "after %d of %d trials: ", trials.size(),
                            spec.maxTrials()) + String.join("; ", unsure));
        }
        return point(order, value, path, ProbedPoint.Decision.MEETS, validity, values, throughput, trials,
                judged, null);
    }

    /**
     * Whether the point deserves another trial (budget allowing): its intervals hold a threshold, or every trial so
     * far was client-limited (a busy moment may pass).
     */
    static boolean undecided(final SearchSpec spec, final ProbedPoint p) {
        return p.decision() == ProbedPoint.Decision.INCONCLUSIVE || p.decision() == ProbedPoint.Decision.INVALID
                && p.trials().stream().allMatch(t -> t.clientLimited(spec.maxClientLateness())
                        && !Result.INVALID.wireName().equals(t.validity()));
    }

    /**
     * Whether a point's {@code stat} is computed over its trials' requests together (upstream's
     * --search-percentile-pooling pooled) rather than as the mean of its trials' statistics.
     */
    static boolean pooled(final SearchSpec spec, final String stat) {
        return SearchSpec.POOLING_POOLED.equals(spec.pooling()) && stat.matches("p\\d+(\\.\\d+)?");
    }

    /** The percentile of pooled requests, as a cell's summary computes it (linear between ranks). */
    static double pooledStat(final double[] requests, final String stat) {
        final io.aiperf.engine.metrics.Stats s = io.aiperf.engine.metrics.Stats.of(requests, requests.length);
        return s == null ? Double.NaN : s.get(stat);
    }

    /** The requests of every trial pooled; empty when a trial's records are unreadable (then: by value). */
    static double[] requests(final String metric, final List<Trial> trials) {
        final List<double[]> parts = new ArrayList<>();
        for (final Trial t : trials) {
            final RequestSamples s = RequestSamples.read(t.records(), t.warmedUp());
            if (s == null) {
                return new double[0];
            }
            parts.add(s.values(metric));
        }
        return parts.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    private static String worstValidity(final List<Trial> trials) {
        String worst = null;
        for (final Trial t : trials) {
            final String v = t.validity();
            if (v != null && (worst == null || rank(v) > rank(worst))) {
                worst = v;
            }
        }
        return worst;
    }

    private static int rank(final String validity) {
        return List.of("ok", "warn", "invalid").indexOf(validity);
    }

    private static String interval(final SearchSpec spec, final SloJudgement j) {
        return String.format(Locale.ROOT, "its %.0f%% bounds [%s, %s]", 100 * spec.confidence(), fmt(j.low()),
                fmt(j.high()));
    }

    private static String fmt(final double v) {
        return Double.isInfinite(v) ? (v > 0 ? "+inf" : "-inf") : String.format(Locale.ROOT, "%.2f", v);
    }

    private static ProbedPoint point(final int order, final int value, final String path,
                                     final ProbedPoint.Decision decision, final String validity,
                                     final List<Double> values, final double throughput, final List<Trial> trials,
                                     final List<SloJudgement> judged, final String reason) {
        return new ProbedPoint(order, value, decision, path, validity, List.copyOf(values), throughput,
                List.copyOf(trials), List.copyOf(judged), reason);
    }
}
