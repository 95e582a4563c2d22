package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.validity.Thresholds;
import io.aiperf.engine.validity.Validity;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A breach of a relative latency limit no larger than the client's own lateness (src-docs/gating.md, "Why a rule is
 * inconclusive"): a client short of CPU wakes its timers late ({@code client_health.wakeup_delay_p99_ms}), and every
 * timestamp it takes is late by as much, so a change of that size may be the client's, not the server's. Such a
 * rule is inconclusive, with the client's CPU as the cause. Stateless.
 */
final class ClientLateness {
    private ClientLateness() {
    }

    /** The result, inconclusive when its relative breach is within the lateness of a client short of CPU. */
    static RuleResult judge(final RuleResult r, final List<JsonNode> baseline, final List<JsonNode> candidate,
                            final Thresholds thresholds) {
        final GateRule rule = r.rule();
        if (r.status() != Status.FAILED && r.status() != Status.UNSTABLE || !rule.hasRelativeLimit()
                || !"ms".equals(r.unit()) || rule.max() != null && r.candidate() > rule.max()
                || rule.min() != null && r.candidate() < rule.min()) {
            return r; // not a relative breach of a time, or an absolute limit broke as well
        }
        final double lateness = Stream.concat(baseline.stream(), candidate.stream())
                .mapToDouble(s -> s.path("client_health").path("wakeup_delay_p99_ms").asDouble(0)).max().orElse(0);
        if (lateness < thresholds.of(Validity.CLIENT_WAKEUP).warn() || Math.abs(r.delta()) > lateness) {
            return r;
        }
        return new RuleResult(rule, r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), Status.INCONCLUSIVE,
                String.format(Locale.ROOT, "inconclusive: the change of %s is within the client's own lateness: its "
                        + "timer wake-ups were %s late (p99), so the client was short of CPU and its timestamps late by "
                        + "as much. To fix: run the client on a machine (or agent) with idle cores, or lower the load "
                        + "(--concurrency, --request-rate) [%s]", GateEvaluator.fmt(Math.abs(r.delta()), "ms"),
                        GateEvaluator.fmt(lateness, "ms"), r.message()));
    }
}
