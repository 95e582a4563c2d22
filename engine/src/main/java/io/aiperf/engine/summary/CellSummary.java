package io.aiperf.engine.summary;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What one cell measured, as {@code profile_export_aiperf.json} holds it, typed ({@link SummaryCodec} reads it).
 * A summary written by upstream AIPerf or by an older engine lacks some blocks: their numbers read as NaN and
 * their lists and maps as empty, never as zero, so a check can tell "not recorded" from "nothing happened".
 *
 * @param metrics the metric blocks by catalogue tag ({@code time_to_first_token}...), in file order
 * @param inputConfig the config echo ({@code input_config}), an empty object when absent
 * @param warmup the warmup metrics by tag, or null when the cell had no warmup
 * @param errors the error summary
 * @param environment where the cell ran
 * @param shards how a cell merged from shards started, or null for a cell run whole
 * @param validityResult the worst validity result written with the summary, or null when none was
 * @param validityChecks the validity checks written with the summary, in file order; empty when none were
 */
public record CellSummary(String schemaVersion, String aiperfVersion, String benchmarkId,
                          Map<String, Metric> metrics, JsonNode inputConfig, boolean wasCancelled,
                          List<ErrorCount> errors, Map<String, Metric> warmup, ClientHealth health,
                          TokenAccounting tokens, Environment environment, Shards shards, String validityResult,
                          List<ValidityCheck> validityChecks) {

    /** The metric of a tag, or null when the summary has none. */
    public Metric metric(final String tag) {
        return metrics.get(tag);
    }

    /** A statistic of a metric ({@code avg}, {@code p99}...), NaN when either is absent. */
    public double stat(final String tag, final String stat) {
        final Metric m = metrics.get(tag);
        return m == null ? Double.NaN : m.stat(stat);
    }

    /**
     * One metric block.
     *
     * @param stats every numeric statistic in file order ({@code avg}, {@code p1}..., {@code count}, {@code sum})
     */
    public record Metric(String unit, Map<String, Double> stats) {
        /** A statistic, NaN when absent. */
        public double stat(final String name) {
            final Double v = stats.get(name);
            return v == null ? Double.NaN : v;
        }
    }

    /** One line of the error summary. */
    public record ErrorCount(Integer code, String type, String message, long count) {
    }

    /**
     * How the load generator fared.
     *
     * @param wakeupDelayP99Ms NaN when not recorded
     * @param abandonedRequests NaN when not recorded
     * @param openLoop each open-loop phase by name, empty in closed loop
     * @param poolWaitP99Ms NaN when not recorded
     */
    public record ClientHealth(double wakeupDelayP99Ms, double abandonedRequests, Map<String, OpenLoop> openLoop,
                               double poolWaitP99Ms) {
    }

    /** How one open-loop phase kept its schedule. */
    public record OpenLoop(long scheduled, long sent, double scheduleLagP99Ms) {
    }

    /** The sums the token validity checks read (src-docs/validity.md); zero when not recorded. */
    public record TokenAccounting(long comparedRequests, long clientOutputTokens, long serverOutputTokens,
                                  long oslRequests, long requestedOutputTokens, long deliveredOutputTokens) {
    }

    /**
     * Where the cell ran.
     *
     * @param configHash null when not recorded
     * @param fingerprint the fields a gate compares, in file order; a field recorded as null maps to null
     */
    public record Environment(String configHash, Map<String, String> fingerprint) {
    }

    /**
     * One validity check as the summary holds it (src-docs/validity.md).
     *
     * @param result ok, warn or invalid
     * @param fix what to change, or null when the check passed
     */
    public record ValidityCheck(String name, String result, String message, String fix) {
    }

    /** A merged cell's shards: their start lateness and clock offsets, one value a shard that recorded it. */
    public record Shards(int count, List<Double> startLatenessMs, List<Double> clockOffsetMs) {
    }
}
