package io.aiperf.engine.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises another tool's result file by its fields and maps it into this engine's metric catalogue, converting
 * units (src-docs/import.md). Each tool's names follow its documented output:
 * <ul>
 *   <li>vLLM {@code bench serve --save-result}: {@code mean_ttft_ms}, {@code median_ttft_ms}, {@code std_ttft_ms},
 *       {@code pNN_ttft_ms} and the same for {@code tpot}, {@code itl}, {@code e2el}, plus throughputs;</li>
 *   <li>GuideLLM's JSON report: {@code benchmarks[].metrics.<name>.successful} distributions with {@code mean},
 *       {@code median}, {@code std_dev}, {@code min}, {@code max}, {@code count} and {@code percentiles.pNN};</li>
 *   <li>inference-perf's {@code summary_lifecycle_metrics.json}: {@code successes.latency.<name>} in seconds with
 *       {@code mean}, {@code median}, {@code pNN}, {@code min}, {@code max}, and {@code successes.throughput}.</li>
 * </ul>
 * Stateless.
 */
public final class ForeignResults {
    private static final Pattern VLLM_PERCENTILE = Pattern.compile("p(\\d+(?:\\.\\d+)?)_(ttft|tpot|itl|e2el)_ms");

    private ForeignResults() {
    }

    /** The results in a parsed file, or an empty list when the file is not another tool's (it is ours or AIPerf's). */
    public static List<ImportedRun> read(final JsonNode root) {
        if (root.has("mean_ttft_ms") || root.has("mean_e2el_ms")) {
            return List.of(vllm(root));
        }
        if (root.path("benchmarks").isArray() && root.path("benchmarks").path(0).has("metrics")) {
            return guidellm(root);
        }
        if (root.path("successes").has("latency")) {
            return List.of(inferencePerf(root));
        }
        return List.of();
    }

    private static ImportedRun vllm(final JsonNode root) {
        final Builder b = new Builder("vLLM bench serve");
        final Map<String, MetricSpec> names = Map.of("ttft", MetricRegistry.TTFT, "tpot", MetricRegistry.ITL,
                "itl", MetricRegistry.ICL, "e2el", MetricRegistry.REQUEST_LATENCY);
        names.forEach((name, spec) -> {
            final ObjectNode m = b.metric(spec);
            put(m, "avg", root.get("mean_" + name + "_ms"), 1);
            put(m, "p50", root.get("median_" + name + "_ms"), 1);
            put(m, "std", root.get("std_" + name + "_ms"), 1);
        });
        final Iterator<String> keys = root.fieldNames();
        while (keys.hasNext()) {
            final String key = keys.next();
            final Matcher p = VLLM_PERCENTILE.matcher(key);
            if (p.matches() && isWhole(p.group(1))) {
                put(b.metric(names.get(p.group(2))), "p" + (int) Double.parseDouble(p.group(1)), root.get(key), 1);
            }
        }
        b.scalar(MetricRegistry.REQUEST_THROUGHPUT, root.get("request_throughput"), 1);
        b.scalar(MetricRegistry.OUTPUT_THROUGHPUT, root.get("output_throughput"), 1);
        b.scalar(MetricRegistry.TOTAL_THROUGHPUT, root.get("total_token_throughput"), 1);
        b.scalar(MetricRegistry.REQUEST_COUNT, root.get("completed"), 1);
        b.scalar(MetricRegistry.ERROR_COUNT, root.get("failed"), 1);
        b.scalar(MetricRegistry.DURATION, root.get("duration"), 1);
        b.scalar(MetricRegistry.GOODPUT, root.get("request_goodput"), 1);
        return b.build(ImportedRun.SINGLE_CELL);
    }

    private static List<ImportedRun> guidellm(final JsonNode root) {
        final List<ImportedRun> out = new ArrayList<>();
        final JsonNode benchmarks = root.get("benchmarks");
        for (int i = 0; i < benchmarks.size(); i++) {
            final JsonNode metrics = benchmarks.get(i).path("metrics");
            final Builder b = new Builder("GuideLLM");
            b.distribution(MetricRegistry.REQUEST_LATENCY, metrics.path("request_latency").path("successful"), 1000);
            b.distribution(MetricRegistry.TTFT, metrics.path("time_to_first_token_ms").path("successful"), 1);
            // GuideLLM's inter_token_latency_ms is (last token - first token) / (tokens - 1): AIPerf's ITL.
            b.distribution(MetricRegistry.ITL, metrics.path("inter_token_latency_ms").path("successful"), 1);
            b.distribution(MetricRegistry.ISL, metrics.path("prompt_token_count").path("successful"), 1);
            b.distribution(MetricRegistry.OSL, metrics.path("output_token_count").path("successful"), 1);
            b.scalar(MetricRegistry.REQUEST_THROUGHPUT, metrics.path("requests_per_second").path("successful").get("mean"), 1);
            b.scalar(MetricRegistry.OUTPUT_THROUGHPUT,
                    metrics.path("output_tokens_per_second").path("successful").get("mean"), 1);
            b.scalar(MetricRegistry.TOTAL_THROUGHPUT, metrics.path("tokens_per_second").path("successful").get("mean"), 1);
            b.scalar(MetricRegistry.REQUEST_COUNT, metrics.path("request_latency").path("successful").get("count"), 1);
            b.scalar(MetricRegistry.ERROR_COUNT, metrics.path("request_latency").path("errored").get("count"), 1);
            out.add(b.build(benchmarks.size() == 1 ? ImportedRun.SINGLE_CELL : "benchmark_" + (i + 1)));
        }
        return out;
    }

    private static ImportedRun inferencePerf(final JsonNode root) {
        final Builder b = new Builder("inference-perf");
        final JsonNode latency = root.path("successes").path("latency");
        b.percentiles(MetricRegistry.REQUEST_LATENCY, latency.path("request_latency"), 1000);
        b.percentiles(MetricRegistry.TTFT, latency.path("time_to_first_token"), 1000);
        // inference-perf's time_per_output_token excludes the first token (AIPerf's ITL); its inter_token_latency
        // is the gap between chunks (AIPerf's inter-chunk latency).
        b.percentiles(MetricRegistry.ITL, latency.path("time_per_output_token"), 1000);
        b.percentiles(MetricRegistry.ICL, latency.path("inter_token_latency"), 1000);
        b.percentiles(MetricRegistry.ISL, root.path("successes").path("prompt_len"), 1);
        b.percentiles(MetricRegistry.OSL, root.path("successes").path("output_len"), 1);
        final JsonNode throughput = root.path("successes").path("throughput");
        b.scalar(MetricRegistry.REQUEST_THROUGHPUT, throughput.get("requests_per_sec"), 1);
        b.scalar(MetricRegistry.OUTPUT_THROUGHPUT, throughput.get("output_tokens_per_sec"), 1);
        b.scalar(MetricRegistry.TOTAL_THROUGHPUT, throughput.get("total_tokens_per_sec"), 1);
        b.scalar(MetricRegistry.REQUEST_COUNT, root.path("successes").get("count"), 1);
        b.scalar(MetricRegistry.ERROR_COUNT, root.path("failures").get("count"), 1);
        return b.build(ImportedRun.SINGLE_CELL);
    }

    private static boolean isWhole(final String number) {
        final double v = Double.parseDouble(number);
        return v == Math.rint(v) && v >= 1 && v <= 99;
    }

    private static void put(final ObjectNode metric, final String stat, final JsonNode value, final double scale) {
        if (value != null && value.isNumber()) {
            metric.put(stat, value.doubleValue() * scale);
        }
    }

    /** Builds one summary; {@code scale} turns the source's unit into the catalogue's display unit. */
    private static final class Builder {
        private final String tool;
        private final ObjectNode summary = JsonNodeFactory.instance.objectNode();

        Builder(final String tool) {
            this.tool = tool;
        }

        ObjectNode metric(final MetricSpec spec) {
            final JsonNode existing = summary.get(spec.tag());
            return existing instanceof ObjectNode o ? o : summary.putObject(spec.tag()).put("unit", spec.unit());
        }

        void scalar(final MetricSpec spec, final JsonNode value, final double scale) {
            if (value != null && value.isNumber()) {
                summary.putObject(spec.tag()).put("unit", spec.unit()).put("avg", value.doubleValue() * scale);
            }
        }

        /** A GuideLLM distribution: mean, median, std_dev, min, max, count and percentiles.pNN. */
        void distribution(final MetricSpec spec, final JsonNode d, final double scale) {
            if (!d.isObject()) {
                return;
            }
            final ObjectNode m = metric(spec);
            put(m, "avg", d.get("mean"), scale);
            put(m, "p50", d.get("median"), scale);
            put(m, "std", d.get("std_dev"), scale);
            put(m, "min", d.get("min"), scale);
            put(m, "max", d.get("max"), scale);
            if (d.path("count").isNumber()) {
                m.put("count", d.get("count").asLong());
            }
            final Iterator<Map.Entry<String, JsonNode>> p = d.path("percentiles").properties().iterator();
            while (p.hasNext()) {
                final Map.Entry<String, JsonNode> e = p.next();
                final String stat = guidellmPercentile(e.getKey());
                if (stat != null) {
                    put(m, stat, e.getValue(), scale);
                }
            }
        }

        /** An inference-perf block: mean, median, min, max and pNN keys. */
        void percentiles(final MetricSpec spec, final JsonNode d, final double scale) {
            if (!d.isObject()) {
                return;
            }
            final ObjectNode m = metric(spec);
            put(m, "avg", d.get("mean"), scale);
            put(m, "p50", d.get("median"), scale);
            put(m, "min", d.get("min"), scale);
            put(m, "max", d.get("max"), scale);
            final Iterator<Map.Entry<String, JsonNode>> it = d.properties().iterator();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().matches("p\\d+(\\.\\d+)?") && isWhole(e.getKey().substring(1))) {
                    put(m, "p" + (int) Double.parseDouble(e.getKey().substring(1)), e.getValue(), scale);
                }
            }
        }

        ImportedRun build(final String cell) {
            final List<String> missing = new ArrayList<>();
            final Iterator<Map.Entry<String, JsonNode>> it = summary.properties().iterator();
            while (it.hasNext()) {
                if (it.next().getValue().size() <= 1) { // only a unit: the source had nothing for it
                    it.remove();
                }
            }
            for (final String tag : MetricRegistry.tags()) {
                if (!summary.has(tag)) {
                    missing.add(tag);
                }
            }
            return new ImportedRun(tool, cell, summary, missing);
        }
    }

    /** GuideLLM's percentile names: p01 is the 1st, p05 the 5th, p10 the 10th ... p99 the 99th; p001, p999 have no peer. */
    static String guidellmPercentile(final String key) {
        return switch (key) {
            case "p01" -> "p1";
            case "p05" -> "p5";
            case "p10", "p25", "p50", "p75", "p90", "p95", "p99" -> key;
            default -> null;
        };
    }
}
