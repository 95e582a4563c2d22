package io.aiperf.engine.gate;

import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.validity.Thresholds;
import io.aiperf.engine.validity.Validity;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A breach of a relative limit on a latency's tail no larger than the client's own lateness (src-docs/gating.md, "Why
 * a rule is inconclusive"): a client short of CPU wakes its timers late, and its slowest 1% of wake-ups
 * ({@code client_health.wakeup_delay_p99_ms}) make its slowest timestamps late by as much, so a p99 (or max) that
 * moved by that much may have moved on the client. Such a rule is inconclusive, with the client's CPU as the cause.
 * The median and the mean are not judged so: a 1% tail of late wake-ups does not move them. Stateless.
 */
final class ClientLateness {
    private ClientLateness() {
    }

    /** The stats the client's p99 lateness speaks to: the maximum and percentiles from p99 up. */
    static boolean tail(final String stat) {
        return stat.equals("max") || stat.matches("p\\d+") && Double.parseDouble(stat.substring(1)) >= 99;
    }

    /** The result, inconclusive when its relative breach is within the lateness of a client short of CPU. */
    static RuleResult judge(final RuleResult r, final List<CellSummary> baseline, final List<CellSummary> candidate,
                            final Thresholds thresholds) {
        final GateRule rule = r.rule();
        if (r.status() != Status.FAILED && r.status() != Status.UNSTABLE || !rule.hasRelativeLimit()
                || !"ms".equals(r.unit()) || !tail(rule.stat()) || rule.max() != null && r.candidate() > rule.max()
                || rule.min() != null && r.candidate() < rule.min()) {
            return r; // not a relative breach of a time's tail, or an absolute limit broke as well
        }
        final double lateness = Stream.concat(baseline.stream(), candidate.stream())
                .mapToDouble(s -> s.health().wakeupDelayP99Ms()).filter(d -> !Double.isNaN(d)).max().orElse(0);
        if (lateness < thresholds.of(Validity.CLIENT_WAKEUP).warn() || Math.abs(r.delta()) > lateness) {
            return r;
        }
        return new RuleResult(rule, r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), Status.INCONCLUSIVE,
                String.format(Locale.ROOT, "inconclusive: the change of %s is within the client's own lateness: its "
                        + "timer wake-ups were %s late (p99), so the client was short of CPU and its timestamps late by "
                        + "as much. To fix: run the client on a machine (or agent) with idle cores, or lower the load "
                        + "(--concurrency, --request-rate) [%s]", GateEvaluator.fmt(Math.abs(r.delta()), "ms"),
                        GateEvaluator.fmt(lateness, "ms"), r.message()), r.changeLowPct(), r.changeHighPct());
    }
}
