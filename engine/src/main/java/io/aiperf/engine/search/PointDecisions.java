package io.aiperf.engine.search;

import io.aiperf.engine.convergence.TrialSeries;
import java.util.ArrayList;
import java.util.List;

/**
 * A probed point decided on everything the search asks (src-docs/capacity.md): its SLOs ({@link PointDecision}),
 * each SLA tier's SLOs, its objective, and its trials' convergence; and whether it deserves another trial.
 * Stateless.
 */
final class PointDecisions {
    private PointDecisions() {
    }

    static ProbedPoint decide(final SearchSpec spec, final int order, final int value, final String path,
                              final List<Trial> trials, final TrialSeries series) {
        ProbedPoint point = PointDecision.decide(spec, order, value, path, trials);
        final List<ProbedPoint> byTier = new ArrayList<>();
        for (final SearchSpec.SlaTier tier : spec.tiers()) {
            final List<Sla> slas = new ArrayList<>(tier.slas());
            slas.addAll(spec.slas()); // upstream: every --search-sla holds in each tier too
            byTier.add(PointDecision.decide(spec.withSlas(slas), order, value, path,
                    trials.stream().map(t -> t.forSlas(slas)).toList()));
        }
        if (!byTier.isEmpty()) {
            point = overall(point, byTier, spec);
        }
        return point.with(objective(spec, trials), series == null ? null : series.json(), byTier);
    }

    /**
     * Whether the point gets another trial, its budget allowing: an SLO (of any tier) is undecided, or
     * --convergence-metric is set and its trials have not converged (a failed or invalid point stops).
     */
    static boolean moreTrials(final SearchSpec spec, final ProbedPoint p, final TrialSeries series) {
        final boolean undecided = PointDecision.undecided(spec, p)
                || p.tiers().stream().anyMatch(t -> PointDecision.undecided(spec, t));
        final boolean judged = p.decision() == ProbedPoint.Decision.MEETS || p.decision() == ProbedPoint.Decision.MISSES
                || p.decision() == ProbedPoint.Decision.INCONCLUSIVE;
        return undecided || series != null && judged && !series.state().converged();
    }

    /** With tiers, a point meets when some tier meets (upstream's feasible = any tier), else it takes the first's. */
    private static ProbedPoint overall(final ProbedPoint point, final List<ProbedPoint> byTier,
                                       final SearchSpec spec) {
        for (final ProbedPoint.Decision d : List.of(ProbedPoint.Decision.MEETS, ProbedPoint.Decision.INCONCLUSIVE)) {
            for (int i = 0; i < byTier.size(); i++) {
                if (byTier.get(i).decision() == d) {
                    return point.decided(d, d == ProbedPoint.Decision.MEETS ? null
                            : "tier " + spec.tiers().get(i).label() + ": " + byTier.get(i).reason());
                }
            }
        }
        final ProbedPoint first = byTier.get(0);
        return point.decided(first.decision(), "tier " + spec.tiers().get(0).label() + ": " + first.reason());
    }

    /**
     * The objective's statistic: the mean over the trials whose client kept up, or with pooled percentiles the
     * percentile of their requests together; NaN without an objective.
     */
    static double objective(final SearchSpec spec, final List<Trial> trials) {
        final SearchSpec.Objective o = spec.objective();
        if (o == null) {
            return Double.NaN;
        }
        final List<Trial> usable = trials.stream().filter(t -> t.error() == null
                && !t.clientLimited(spec.maxClientLateness())).toList();
        if (PointDecision.pooled(spec, o.stat())) {
            final double[] requests = PointDecision.requests(o.metric(), usable);
            if (requests.length > 0) {
                return PointDecision.pooledStat(requests, o.stat());
            }
        }
        return usable.stream().mapToDouble(t -> o.valueIn(t.summary())).filter(Double::isFinite).average()
                .orElse(Double.NaN);
    }
}
