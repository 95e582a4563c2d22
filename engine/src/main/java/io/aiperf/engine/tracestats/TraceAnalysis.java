package io.aiperf.engine.tracestats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.metrics.Stats;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The statistics of a mooncake trace that upstream AIPerf's {@code analyze-trace} reports (src-docs/datasets.md): the
 * input and output lengths, how much of each prompt is a prefix other rows share, and the cache hit rate an infinite
 * prefix cache would reach replaying the rows in order.
 *
 * @param contextLengths per row: the tokens of its blocks that another row has at the same position (all of its
 *                       input when every block is shared)
 * @param uniquePromptLengths per row: its input length less the context length
 * @param hitRates per row with hash ids: the share of its blocks before the first one no earlier row had
 */
public record TraceAnalysis(int totalRequests, int uniquePrefixes, int numPrefixGroups, double cacheHitRate,
                            double[] inputLengths, double[] outputLengths, double[] contextLengths,
                            double[] uniquePromptLengths, double[] hitRates, double prefixReuseRatio) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIELD = "--input-file";

    /** Reads the trace; a line that is not a JSON object is a one-line error naming the file and line. */
    public static TraceAnalysis of(final Path trace, final int blockSize) {
        if (blockSize < 1) {
            throw new ConfigException("--block-size", "must be at least 1, got " + blockSize);
        }
        final List<Row> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    rows.add(Row.parse(trace, number, line));
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ConfigException(FIELD, "file not found: " + trace);
        } catch (IOException e) {
            throw new ConfigException(FIELD, "cannot read " + trace + ": " + e.getMessage());
        }
        return of(rows, blockSize);
    }

    /** One row of a trace: its lengths and block hashes (empty when it has none). */
    public record Row(int inputLength, int outputLength, List<Long> hashIds) {
        static Row parse(final Path trace, final int number, final String line) {
            final JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new ConfigException(FIELD, trace + ":" + number + ": invalid JSON in trace line: "
                        + e.getOriginalMessage());
            }
            if (node == null || !node.isObject()) {
                throw new ConfigException(FIELD, trace + ":" + number + ": trace line must be a JSON object");
            }
            final List<Long> hashes = new ArrayList<>();
            node.path("hash_ids").forEach(h -> hashes.add(h.asLong()));
            return new Row(node.path("input_length").asInt(0), node.path("output_length").asInt(0), hashes);
        }
    }

    /** The statistics of rows in trace order, for KV-cache blocks of {@code blockSize} tokens. */
    public static TraceAnalysis of(final List<Row> rows, final int blockSize) {
        final Map<List<Long>, Integer> prefixes = new HashMap<>();
        final Map<String, Integer> atPosition = new HashMap<>();
        for (final Row r : rows) {
            for (int i = 1; i <= r.hashIds().size(); i++) {
                prefixes.merge(List.copyOf(r.hashIds().subList(0, i)), 1, Integer::sum);
                atPosition.merge((i - 1) + ":" + r.hashIds().get(i - 1), 1, Integer::sum);
            }
        }
        final int n = rows.size();
        final double[] isl = new double[n];
        final double[] osl = new double[n];
        final double[] context = new double[n];
        final double[] unique = new double[n];
        final List<Double> hits = new ArrayList<>();
        final Set<Long> seen = new HashSet<>();
        final Map<Long, Integer> firstBlocks = new HashMap<>();
        for (int k = 0; k < n; k++) {
            final Row r = rows.get(k);
            isl[k] = r.inputLength();
            osl[k] = r.outputLength();
            final List<Long> h = r.hashIds();
            if (h.isEmpty()) {
                unique[k] = r.inputLength();
                continue;
            }
            int repeated = 0;
            for (int i = 0; i < h.size(); i++) {
                repeated += atPosition.get(i + ":" + h.get(i)) > 1 ? 1 : 0;
            }
            context[k] = repeated == h.size() ? r.inputLength() : (double) repeated * blockSize;
            unique[k] = r.inputLength() - context[k];
            int firstUnseen = h.size();
            for (int i = 0; i < h.size(); i++) {
                if (!seen.contains(h.get(i))) {
                    firstUnseen = i;
                    break;
                }
            }
            hits.add((double) firstUnseen / h.size());
            seen.addAll(h);
            firstBlocks.merge(h.get(0), 1, Integer::sum);
        }
        final double[] hitRates = hits.stream().mapToDouble(Double::doubleValue).toArray();
        final long total = prefixes.values().stream().mapToLong(Integer::longValue).sum();
        final long reused = prefixes.values().stream().filter(c -> c > 1).mapToLong(Integer::longValue).sum();
        return new TraceAnalysis(n, prefixes.size(), (int) firstBlocks.values().stream().filter(c -> c > 1).count(),
                hitRates.length == 0 ? 0.0 : java.util.Arrays.stream(hitRates).average().orElse(0.0),
                isl, osl, context, unique, hitRates, total == 0 ? 0.0 : (double) reused / total);
    }

    /** The report as upstream writes it with {@code --output-file}: its field names, in its order. */
    public ObjectNode toJson() {
        final ObjectNode o = JSON.createObjectNode();
        o.put("total_requests", totalRequests);
        o.put("unique_prefixes", uniquePrefixes);
        o.put("num_prefix_groups", numPrefixGroups);
        o.put("cache_hit_rate", cacheHitRate);
        final Stats in = Stats.of(inputLengths, inputLengths.length);
        final Stats out = Stats.of(outputLengths, outputLengths.length);
        o.put("min_isl", in == null ? 0 : (long) in.min());
        o.put("max_isl", in == null ? 0 : (long) in.max());
        o.put("avg_isl", in == null ? 0.0 : in.avg());
        o.put("min_osl", out == null ? 0 : (long) out.min());
        o.put("max_osl", out == null ? 0 : (long) out.max());
        o.put("avg_osl", out == null ? 0.0 : out.avg());
        o.put("prefix_reuse_ratio", prefixReuseRatio);
        o.set("isl_stats", stats(in));
        o.set("osl_stats", stats(out));
        o.set("context_length_stats", stats(Stats.of(contextLengths, contextLengths.length)));
        o.set("unique_prompt_length_stats", stats(Stats.of(uniquePromptLengths, uniquePromptLengths.length)));
        o.set("hit_rate_stats", stats(Stats.of(hitRates, hitRates.length)));
        return o;
    }

    /** The console report, laid out as upstream prints it. */
    public String render() {
        final StringBuilder sb = new StringBuilder();
        final String rule = "=".repeat(60);
        sb.append("\nTrace Analysis Report\n").append(rule).append('\n');
        sb.append(String.format(java.util.Locale.ROOT, "Total requests:        %,d%n", totalRequests));
        sb.append(String.format(java.util.Locale.ROOT, "Unique prefixes:       %,d%n", uniquePrefixes));
        sb.append(String.format(java.util.Locale.ROOT, "Prefix reuse ratio:    %.2f%%%n", prefixReuseRatio * 100));
        sb.append('\n');
        block(sb, "Input Length", Stats.of(inputLengths, inputLengths.length));
        block(sb, "Context Length", Stats.of(contextLengths, contextLengths.length));
        block(sb, "Unique Prompt Length", Stats.of(uniquePromptLengths, uniquePromptLengths.length));
        block(sb, "Output Length", Stats.of(outputLengths, outputLengths.length));
        block(sb, "Theoretical Hit Rates", Stats.of(hitRates, hitRates.length));
        return sb.append(rule).append('\n').toString();
    }

    private static void block(final StringBuilder sb, final String name, final Stats s) {
        sb.append(name).append(":\n");
        if (s == null) {
            sb.append("  No data\n\n");
            return;
        }
        final String[][] rows = {{"Mean:   ", "avg"}, {"Std Dev:", "std"}, {"Min:    ", "min"}, {"P25:    ", "p25"},
                {"Median: ", "p50"}, {"P75:    ", "p75"}, {"Max:    ", "max"}};
        for (final String[] r : rows) {
            sb.append(String.format(java.util.Locale.ROOT, "  %s %,.2f%n", r[0], s.get(r[1])));
        }
        sb.append('\n');
    }

    private static JsonNode stats(final Stats s) {
        if (s == null) {
            return JSON.nullNode();
        }
        final ObjectNode o = JSON.createObjectNode();
        o.put("mean", s.avg());
        o.put("std_dev", s.std());
        o.put("min", s.min());
        o.put("p25", s.p25());
        o.put("median", s.p50());
        o.put("p75", s.p75());
        o.put("max", s.max());
        return o;
    }
}
