package io.aiperf.engine.validity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The validity checks of one cell, read from its summary (src-docs/validity.md): did the client deliver the load,
 * was it healthy, did enough requests succeed. A run that fails a check measured the client or the noise, not the
 * server, and a gate must not pass or fail a release on it. Stateless.
 */
public final class Validity {
    public static final String ERROR_SHARE = "error_share";
    public static final String ACHIEVED_RATE = "achieved_rate";
    public static final String SCHEDULE_LAG = "schedule_lag";
    public static final String POOL_WAIT = "pool_wait";
    public static final String CLIENT_WAKEUP = "client_wakeup";
    public static final String ABANDONED = "abandoned_requests";
    public static final String SAMPLE_SIZE = "sample_size";
    public static final String TOKEN_MISMATCH = "token_mismatch";
    public static final String OSL_SHORTFALL = "osl_shortfall";
    public static final String WARM_CACHE = "warm_cache";
    public static final String SHARD_START = "shard_start";
    public static final String SHARD_CLOCK = "shard_clock";

    /** The checks of a run and the worst of their results. */
    public record Report(Result result, List<Check> checks) {
        /** The checks that are not ok, worst first. */
        public List<Check> problems() {
            return checks.stream().filter(c -> c.result() != Result.OK)
                    .sorted((a, b) -> b.result().compareTo(a.result())).toList();
        }
    }

    private Validity() {
    }

    /** Evaluates every check that applies to a cell's summary ({@code profile_export_aiperf.json}). */
    public static Report evaluate(final JsonNode summary, final Thresholds thresholds) {
        return evaluate(SummaryCodec.read(summary), thresholds);
    }

    /** Evaluates every check that applies to a cell's summary. */
    public static Report evaluate(final CellSummary summary, final Thresholds thresholds) {
        final List<Check> checks = new ArrayList<>();
        final double valid = orZero(summary.stat("request_count", SummaryCodec.AVG));
        double errors = orZero(summary.stat("error_request_count", SummaryCodec.AVG));
        for (final CellSummary.ErrorCount e : summary.errors()) {
            if ("RequestCancellationError".equals(e.type())) {
                errors -= e.count(); // cancelled on purpose (--request-cancellation-rate)
            }
        }
        if (valid + errors > 0) {
            checks.add(above(ERROR_SHARE, 100 * errors / (valid + errors), "%", thresholds,
                    "%.1f%% of the requests failed",
                    "fix the errors first (see error_summary); a run that mostly fails measures the failures"));
        }
        final CellSummary.ClientHealth health = summary.health();
        double worstAchieved = Double.NaN;
        double worstLag = Double.NaN;
        for (final CellSummary.OpenLoop loop : health.openLoop().values()) {
            // Sent against what the schedule made due, not against the nominal rate: a short Poisson run's own
            // arrivals differ from the rate by chance, and that is no fault of the client.
            if (loop.scheduled() > 0) {
                final double pct = 100.0 * loop.sent() / loop.scheduled();
                worstAchieved = Double.isNaN(worstAchieved) ? pct : Math.min(worstAchieved, pct);
            }
            final double lag = loop.scheduleLagP99Ms();
            worstLag = Double.isNaN(worstLag) ? lag : Math.max(worstLag, lag);
        }
        if (!Double.isNaN(worstAchieved)) {
            checks.add(below(ACHIEVED_RATE, worstAchieved, "%", thresholds,
                    "the open loop sent %.1f%% of the arrivals its schedule made due",
                    "lower --request-rate, give the client more cores, or split the load over shards"));
        }
        if (!Double.isNaN(worstLag)) {
            checks.add(above(SCHEDULE_LAG, worstLag, "ms", thresholds,
                    "p99 of open-loop sends was %.1f ms behind schedule",
                    "lower --request-rate or give the client more cores"));
        }
        if (!Double.isNaN(health.poolWaitP99Ms())) {
            // Late timer wake-ups mean a client short of CPU: its threads waited for a core, not for a connection,
            // and neither ulimit -n nor the server's accept queue would help.
            final double wakeup = health.wakeupDelayP99Ms();
            final boolean starved = wakeup >= thresholds.of(CLIENT_WAKEUP).warn();
            checks.add(above(POOL_WAIT, health.poolWaitP99Ms(), "ms", thresholds,
                    starved ? "p99 wait for a connection was %.1f ms, while the client's timer wake-ups were "
                            + String.format(Locale.ROOT, "%.1f", wakeup) + " ms late (p99): the "
                            + "client was short of CPU, so the wait is the client's own, not a connection limit"
                            : "p99 wait for a connection was %.1f ms",
                    starved ? "run the client on a machine (or agent) with idle cores, or lower the load "
                            + "(--concurrency, --request-rate); connection limits and the server's accept queue are "
                            + "not the cause"
                            : "check connection limits on the client host (ulimit -n) and the server's accept queue"));
        }
        if (!Double.isNaN(health.wakeupDelayP99Ms())) {
            checks.add(above(CLIENT_WAKEUP, health.wakeupDelayP99Ms(), "ms", thresholds,
                    "p99 of the client's timer wake-ups was %.1f ms late: the client was short of CPU and its "
                            + "timestamps may be late by as much",
                    "run the client on a machine (or agent) with idle cores"));
        }
        if (!Double.isNaN(health.abandonedRequests())) {
            checks.add(above(ABANDONED, health.abandonedRequests(), "requests", thresholds,
                    "%.0f request(s) were cut off by the grace period and are missing from the metrics",
                    "raise --benchmark-grace-period"));
        }
        final CellSummary.TokenAccounting tokens = summary.tokens();
        final long server = tokens.serverOutputTokens();
        if (tokens.comparedRequests() > 0 && server > 0) {
            final long client = tokens.clientOutputTokens();
            checks.add(above(TOKEN_MISMATCH, 100.0 * Math.abs(client - server) / server, "%", thresholds,
                    "the client counted output tokens %.1f%% apart from the server's own count: token throughputs, "
                            + "ITL and OSL are skewed by the tokenizer",
                    "count with the model's tokenizer (--tokenizer), or use the server's counts "
                            + "(--use-server-token-count)"));
        }
        final long requested = tokens.requestedOutputTokens();
        if (requested > 0 && ignoresEos(summary)) {
            final double shortfall = 100.0 * (requested - tokens.deliveredOutputTokens()) / requested;
            checks.add(above(OSL_SHORTFALL, Math.max(0, shortfall), "%", thresholds,
                    "with ignore_eos the server delivered %.1f%% fewer output tokens than asked",
                    "check that the server honours ignore_eos and max_tokens (or the model's context length)"));
        }
        if (sharesPrefixes(summary.inputConfig()) && !resets(summary.inputConfig())) {
            checks.add(above(WARM_CACHE, 1, "", thresholds,
                    "a dataset whose requests share prefixes ran without a KV-cache reset: the server's "
                            + "prefix cache may still hold them from an earlier run, and TTFT reads better than a cold "
                            + "start would",
                    "add --reset-kv-cache (see control-hooks.md for the server's reset route)"));
        }
        final CellSummary.Shards shards = summary.shards();
        if (shards != null && shards.startLatenessMs().size() > 1) {
            checks.add(above(SHARD_START, spread(shards.startLatenessMs()), "ms", thresholds,
                    "the shards started %.0f ms apart",
                    "launch the shards earlier before --start-at, and keep the agents' clocks synchronised"));
        }
        if (shards != null && shards.clockOffsetMs().size() > 1) {
            checks.add(above(SHARD_CLOCK, spread(shards.clockOffsetMs()), "ms", thresholds,
                    "the shards' clocks disagree by %.0f ms (against the server's Date header, good to about a "
                            + "second): --start-at started them apart",
                    "synchronise the agents' clocks (NTP)"));
        }
        if (valid > 0) {
            final String highest = highestPercentile((long) valid);
            checks.add(new Check(SAMPLE_SIZE, valid, "requests", Double.NaN, Double.NaN,
                    highest.equals("p99") ? Result.OK : Result.WARN,
                    String.format(Locale.ROOT, "%.0f valid requests measure percentiles up to %s", valid, highest),
                    "more requests (--request-count) or more trials (--num-profile-runs) for higher percentiles"));
        }
        Result worst = Result.OK;
        for (final Check c : checks) {
            if (c.result().compareTo(worst) > 0) {
                worst = c.result();
            }
        }
        return new Report(worst, checks);
    }

    /**
     * Whether the dataset's requests share prefixes, so a warm prefix cache changes the result: prefix prompt pools,
     * a shared system prompt, multi-turn sessions (each turn resends its history) and hash-id traces.
     */
    private static boolean sharesPrefixes(final JsonNode config) {
        // input_config as upstream writes it has a one-element datasets list; earlier exports a single dataset
        final JsonNode list = config.path("datasets");
        final JsonNode d = list.isArray() && !list.isEmpty() ? list.get(0) : config.path("dataset");
        final JsonNode prompts = d.path("prompts");
        return prompts.path("prefix_prompts").path("pool_size").asInt(0) > 0
                || prompts.path("shared_system_prompt_length").asInt(0) > 0
                || d.path("turns").path("mean").asDouble(1) > 1 || d.path("turns").path("stddev").asDouble(0) > 0
                || List.of("multi_turn", "mooncake_trace").contains(d.path("format").asText(""))
                && "file".equals(d.path("type").asText(""));
    }

    /** Whether the cell reset the server's KV cache before its load. */
    private static boolean resets(final JsonNode config) {
        final JsonNode r = config.path("endpoint").path("reset_kv_cache");
        return r.isObject() || r.asBoolean(false);
    }

    private static double spread(final List<Double> values) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (final double v : values) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi >= lo ? hi - lo : 0;
    }

    private static double orZero(final double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** Whether the requests asked the server to ignore the end-of-sequence token ({@code --extra-inputs ignore_eos:true}). */
    private static boolean ignoresEos(final CellSummary summary) {
        final JsonNode v = summary.inputConfig().path("endpoint").path("extra").path("ignore_eos");
        return v.asBoolean(false) || "true".equalsIgnoreCase(v.asText(""));
    }

    /**
     * The fewest samples a percentile needs to be more than the maximum: {@code 100 / (100 - q)}, so p99 needs
     * 100 values, p95 20, p90 10 and p50 2.
     */
    public static long minimumSamples(final double percentile) {
        return percentile >= 100 ? Long.MAX_VALUE : (long) Math.ceil(100.0 / (100.0 - percentile) - 1e-9);
    }

    private static String highestPercentile(final long n) {
        String best = "none";
        for (final int q : new int[] {50, 75, 90, 95, 99}) {
            if (n >= minimumSamples(q)) {
                best = "p" + q;
            }
        }
        return best;
    }

    private static Check above(final String name, final double figure, final String unit, final Thresholds t,
                               final String what, final String fix) {
        final Thresholds.Limits l = t.of(name);
        final Result r = !Double.isNaN(l.invalid()) && figure >= l.invalid() ? Result.INVALID
                : !Double.isNaN(l.warn()) && figure >= l.warn() ? Result.WARN : Result.OK;
        return new Check(name, figure, unit, l.warn(), l.invalid(), r, String.format(Locale.ROOT, what, figure), fix);
    }

    private static Check below(final String name, final double figure, final String unit, final Thresholds t,
                               final String what, final String fix) {
        final Thresholds.Limits l = t.of(name);
        final Result r = !Double.isNaN(l.invalid()) && figure <= l.invalid() ? Result.INVALID
                : !Double.isNaN(l.warn()) && figure <= l.warn() ? Result.WARN : Result.OK;
        return new Check(name, figure, unit, l.warn(), l.invalid(), r, String.format(Locale.ROOT, what, figure), fix);
    }

    /** The {@code validity} block of a summary. */
    public static ObjectNode json(final Report report) {
        final ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put(SummaryCodec.RESULT, report.result().wireName());
        final var checks = root.putArray(SummaryCodec.CHECKS);
        for (final Check c : report.checks()) {
            final ObjectNode o = checks.addObject();
            o.put(SummaryCodec.NAME, c.name());
            o.put("figure", c.figure());
            o.put("unit", c.unit());
            if (!Double.isNaN(c.warnAt())) {
                o.put("warn_at", c.warnAt());
            }
            if (!Double.isNaN(c.invalidAt())) {
                o.put("invalid_at", c.invalidAt());
            }
            o.put(SummaryCodec.RESULT, c.result().wireName());
            o.put(SummaryCodec.MESSAGE, c.message());
            if (c.result() != Result.OK) {
                o.put(SummaryCodec.FIX, c.fix());
            }
        }
        return root;
    }
}
