package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One of bench/parity's comparisons, kept in the suite: what upstream AIPerf 0.13.0 itself wrote for a streaming chat
 * command line (recorded by bench/parity/record-expected.py: its files, the keys of its summary and of
 * {@code input_config}, each value of {@code input_config} but the URL and the directory of the run, its CSV section headers, the CSV rows whose values do not depend on timing, and the keys of
 * its records) is written by this engine for the same command line too, each item, but those listed with their
 * reason in parity/known-differences.txt (src-docs/migrating.md gives the same reasons). A listed item that is no
 * longer different fails too, so the list only shrinks.
 */
class UpstreamParityTest {
    @TempDir
    Path tmp;

    private static List<String> resource(final String name) throws IOException {
        try (InputStream in = UpstreamParityTest.class.getResourceAsStream("/parity/" + name)) {
            assertThat(in).as(name).isNotNull();
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
    }

    /** The expected file's sections: name to items, in order. */
    private static Map<String, List<String>> expected() throws IOException {
        final Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> current = null;
        for (final String line : resource("upstream-0.13-chat-stream-conc.txt")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            if (line.startsWith("[")) {
                current = out.computeIfAbsent(line.substring(1, line.length() - 1), k -> new ArrayList<>());
            } else {
                current.add(line);
            }
        }
        return out;
    }

    /** {@code section | item | reason} lines: the items this engine writes differently, and why. */
    private static Map<String, String> known() throws IOException {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final String line : resource("known-differences.txt")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            final String[] parts = line.split(" \\| ", 3);
            assertThat(parts).as("section | item | reason: " + line).hasSize(3);
            assertThat(parts[2].strip()).as("a reason for " + line).hasSizeGreaterThan(10);
            out.put(parts[0].strip() + " | " + parts[1].strip(), parts[2].strip());
        }
        return out;
    }

    private static List<String> csvHeaders(final String csv) {
        final List<String> headers = new ArrayList<>();
        boolean start = true;
        for (final String line : csv.split("\r?\n", -1)) {
            if (line.isEmpty()) {
                start = true;
            } else if (start) {
                headers.add(line);
                start = false;
            }
        }
        return headers;
    }

    private static Set<String> recordKeys(final List<JsonNode> records, final String block) {
        final Set<String> keys = new LinkedHashSet<>();
        records.forEach(r -> r.path(block).fieldNames().forEachRemaining(keys::add));
        return keys;
    }

    @Test
    void whatUpstream013WritesForAStreamingChatRunIsWrittenHereButTheListedDifferences() throws Exception {
        final Map<String, List<String>> expected = expected();
        final Map<String, String> known = known();
        final Path dir = tmp.resolve("run");
        // the harness's mock timing: tokens 5 ms apart, so a late first token rarely brings the rest at once
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 5))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "mock-model", "--url", mock.url(), "--tokenizer",
                    "builtin", "--artifact-dir", dir.toString(), "--ui-type", "none", "--endpoint-type", "chat",
                    "--streaming", "--concurrency", "2", "--request-count", "20", "--isl", "64", "--osl", "16",
                    "--random-seed", "42");
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        final Set<String> files = new LinkedHashSet<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(p -> files.add(dir.relativize(p).toString()));
        }
        final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
        final String csv = Files.readString(dir.resolve("profile_export_aiperf.csv"));
        final List<String> csvLines = List.of(csv.split("\r?\n"));
        final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
        final Map<String, Set<String>> ours = new LinkedHashMap<>();
        ours.put("files", files);
        ours.put("profile_export_aiperf.json keys", toSet(summary.fieldNames()));
        ours.put("profile_export_aiperf.json input_config keys", toSet(summary.path("input_config").fieldNames()));
        ours.put("profile_export_aiperf.json input_config values", inputConfigValues(summary.path("input_config")));
        ours.put("profile_export_aiperf.csv headers", new LinkedHashSet<>(csvHeaders(csv)));
        ours.put("profile_export_aiperf.csv rows", new LinkedHashSet<>(csvLines));
        ours.put("profile_export.jsonl metadata keys", recordKeys(records, "metadata"));
        ours.put("profile_export.jsonl metrics keys", recordKeys(records, "metrics"));
        assertThat(expected.keySet()).containsExactlyElementsOf(ours.keySet());

        final List<String> unexplained = new ArrayList<>();
        final List<String> stale = new ArrayList<>();
        int checked = 0;
        for (final Map.Entry<String, List<String>> section : expected.entrySet()) {
            for (final String item : section.getValue()) {
                final String id = section.getKey() + " | " + item;
                final boolean same = ours.get(section.getKey()).contains(item);
                checked++;
                if (!same && !known.containsKey(id)) {
                    unexplained.add(id);
                } else if (same && known.containsKey(id)) {
                    stale.add(id);
                }
            }
        }
        assertThat(unexplained).as("upstream 0.13's output this engine does not write, with no documented reason")
                .isEmpty();
        assertThat(stale).as("listed as different, yet written as upstream writes it: remove from the list").isEmpty();
        final Set<String> ids = new LinkedHashSet<>();
        expected.forEach((s, items) -> items.forEach(i -> ids.add(s + " | " + i)));
        assertThat(ids).as("every listed difference is an item of upstream's output").containsAll(known.keySet());
        assertThat(checked - known.size()).as("items written as upstream writes them").isGreaterThanOrEqualTo(90);
        final List<String> order = new ArrayList<>(ours.get("profile_export_aiperf.json input_config keys"));
        order.retainAll(expected.get("profile_export_aiperf.json input_config keys"));
        final List<String> upstreamOrder = new ArrayList<>(expected.get("profile_export_aiperf.json input_config keys"));
        upstreamOrder.retainAll(order);
        assertThat(order).as("input_config's sections in upstream's order").isEqualTo(upstreamOrder);
    }

    /**
     * Each leaf of {@code input_config} as {@code path = value}, the value in compact JSON (an empty mapping or list is
     * a leaf), as record-expected.py writes upstream's; the run's URL and directory are left out (they differ by run).
     */
    private static Set<String> inputConfigValues(final JsonNode config) {
        final Set<String> out = new LinkedHashSet<>();
        leaves(config, "", out);
        return out;
    }

    private static void leaves(final JsonNode node, final String path, final Set<String> out) {
        if (path.equals("endpoint.urls") || path.equals("artifacts.dir")) {
            return;
        }
        if (node.isObject() && !node.isEmpty()) {
            node.fieldNames().forEachRemaining(k -> leaves(node.get(k), path.isEmpty() ? k : path + "." + k, out));
        } else if (node.isArray() && !node.isEmpty()) {
            for (int i = 0; i < node.size(); i++) {
                leaves(node.get(i), path + "[" + i + "]", out);
            }
        } else {
            out.add(path + " = " + node);
        }
    }

    private static Set<String> toSet(final java.util.Iterator<String> it) {
        final Set<String> out = new LinkedHashSet<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
