package io.aiperf.engine.gate;

import io.aiperf.engine.summary.CellSummary;
import java.util.List;
import java.util.Set;

/**
 * Why a candidate lacks a rule's metric, when the run itself says so: the metrics of streamed answers (time to first
 * token, inter-token latency and the ones built on them) exist only for runs with {@code --streaming}. Stateless.
 */
final class MissingMetric {
    /** The metrics a run measures only when the answers are streamed. */
    static final Set<String> STREAMING_ONLY = Set.of("time_to_first_token", "time_to_first_token_from_intended",
            "time_to_second_token", "time_to_first_output_token", "inter_token_latency", "inter_chunk_latency",
            "decode_duration", "output_token_throughput_per_user", "prefill_throughput_per_user");

    private MissingMetric() {
    }

    /** The result with the real reason when the candidate ran without streaming; else the result as it is. */
    static RuleResult explain(final RuleResult r, final List<CellSummary> candidateSummaries) {
        if (r.status() != Status.FAILED || !Double.isNaN(r.candidate()) || candidateSummaries.isEmpty()
                || !STREAMING_ONLY.contains(r.rule().metric())
                || candidateSummaries.stream().anyMatch(MissingMetric::streamed)) {
            return r;
        }
        return new RuleResult(r.rule(), r.cell(), r.unit(), r.baseline(), r.baselineTrials(), r.candidate(),
                r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(), r.effectSize(), r.status(),
                "failed: the candidate has no " + r.rule().title() + ": it ran without --streaming, and "
                        + r.rule().metric() + " is measured only on streamed answers. To fix: run with --streaming "
                        + "(endpoint.streaming: true), or gate request_latency instead",
                r.changeLowPct(), r.changeHighPct());
    }

    private static boolean streamed(final CellSummary summary) {
        return summary.inputConfig().path("endpoint").path("streaming").asBoolean(false);
    }
}
