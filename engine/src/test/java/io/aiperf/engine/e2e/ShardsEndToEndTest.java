package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One cell run as two shards in two processes, started together by --start-at, merged exactly by aggregate. */
class ShardsEndToEndTest {
    @TempDir
    Path tmp;

    /** NumPy's default percentile: linear interpolation between closest ranks. */
    private static double percentile(final double[] sorted, final double q) {
        final double idx = q / 100 * (sorted.length - 1);
        final int lo = (int) Math.floor(idx);
        final int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (idx - lo);
    }

    @Test
    void twoShardsStartTogetherResetOnceAndMergeIntoTheCell() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Instant startAt = Instant.now().plusSeconds(8); // both JVMs are up by then, even on a busy host
            final List<Process> shards = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                shards.add(Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming",
                        "--isl", "16", "--osl", "8", "--concurrency", "4", "--request-count", "40",
                        "--reset-kv-cache", "--random-seed", "5", "--tokenizer", "builtin", "--shard", i + "/2",
                        "--extra-inputs", "ignore_eos:true",
                        "--start-at", startAt.toString(), "--artifact-dir", tmp.resolve("shard" + i).toString()),
                        tmp.resolve("shard" + i + ".log")).start());
            }
            for (int i = 0; i < 2; i++) {
                assertThat(shards.get(i).waitFor(90, TimeUnit.SECONDS)).as("shard " + (i + 1) + " ended").isTrue();
                assertThat(shards.get(i).exitValue()).as(Files.readString(tmp.resolve("shard" + (i + 1) + ".log")))
                        .isZero();
            }
            for (int i = 1; i <= 2; i++) {
                final JsonNode shard = Runs.json(tmp.resolve("shard" + i).resolve("cell_outcome.json")).path("shard");
                assertThat(shard.path("index").asInt()).isEqualTo(i);
                // No request before --start-at, and the lateness the shard reports is what its records show: the
                // first request left no earlier than start-at + lateness. How late a starved host's timer wakes is
                // not bounded (it was 86 ms at a load of 17), so the bound is what a wait that aimed elsewhere
                // would miss by: start-at was seconds away.
                final double lateness = shard.path("start_lateness_ms").asDouble(-1);
                final long firstStartNs = Runs.jsonl(tmp.resolve("shard" + i).resolve("profile_export.jsonl"))
                        .stream().mapToLong(l -> l.path("metadata").path("request_start_ns").asLong())
                        .min().orElseThrow();
                final double firstStartMs = (firstStartNs - startAt.toEpochMilli() * 1_000_000L) / 1e6;
                assertThat(firstStartMs).as("shard " + i + " first request after start-at").isNotNegative();
                assertThat(lateness).as("shard " + i).isBetween(0.0, firstStartMs + 5.0);
                // A JVM that was not up by --start-at (a very busy host) starts late and says so; one that waited
                // for it starts when it was told to.
                if (Files.readString(tmp.resolve("shard" + i + ".log")).contains(": waiting ")) {
                    assertThat(lateness).as("shard " + i + " waited for start-at").isLessThan(1000.0);
                } else {
                    assertThat(lateness).as("shard " + i).isPositive();
                }
                assertThat(shard.has("clock_offset_ms")).isTrue();
                assertThat(Runs.jsonl(tmp.resolve("shard" + i).resolve("profile_export.jsonl"))).hasSize(20);
            }
            assertThat(mock.controlState().resetCount()).isEqualTo(1); // only shard 1 resets the cache
            final Path merged = tmp.resolve("merged");
            final Runs.Result r = Runs.aiperf("aggregate", tmp.resolve("shard1").toString(),
                    tmp.resolve("shard2").toString(), "--output-dir", merged.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(merged.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(40);
            final List<Double> latencies = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                Runs.jsonl(tmp.resolve("shard" + i).resolve("profile_export.jsonl")).forEach(l ->
                        latencies.add(l.path("metrics").path("request_latency").path("value").asDouble()));
            }
            final double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            for (final int q : new int[] {50, 90, 99}) {
                assertThat(s.path("request_latency").path("p" + q).asDouble()).as("p" + q)
                        .isCloseTo(percentile(sorted, q), org.assertj.core.data.Offset.offset(1e-9));
            }
            assertThat(Runs.json(merged.resolve("cell_outcome.json")).path("counts").path("requests_sent").asInt())
                    .isEqualTo(40);
            // The merged cell is judged for the shards' start spread too.
            final String checks = s.path("validity").toString();
            assertThat(checks).contains("\"shard_start\"").contains("\"shard_clock\"");
            assertThat(s.path("shards").path("start_lateness_ms")).hasSize(2);
            // The records carry each request's output cap, so the merged cell keeps its token accounting.
            final JsonNode tokens = s.path("token_accounting");
            assertThat(tokens.path("osl_requests").asInt()).isEqualTo(40);
            assertThat(tokens.path("requested_output_tokens").asLong()).isEqualTo(40 * 8);
            assertThat(checks).as("with ignore_eos the merged cell judges the output shortfall")
                    .contains("\"osl_shortfall\"");
            assertThat(Runs.jsonl(merged.resolve("profile_export.jsonl"))).hasSize(40);
        }
        // A shard alone is refused; so are two copies of one shard posing as both (their request ids overlap).
        final Runs.Result missing = Runs.aiperf("aggregate", tmp.resolve("shard1").toString(), "--output-dir",
                tmp.resolve("m1").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("shard 2/2 is missing");
        final Path fake = tmp.resolve("fake2");
        Files.createDirectories(fake);
        try (var files = Files.list(tmp.resolve("shard1"))) {
            for (final Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, fake.resolve(f.getFileName()));
            }
        }
        final ObjectNode outcome = (ObjectNode) Runs.json(fake.resolve("cell_outcome.json"));
        ((ObjectNode) outcome.path("shard")).put("index", 2);
        Files.writeString(fake.resolve("cell_outcome.json"), outcome.toString());
        final Runs.Result overlap = Runs.aiperf("aggregate", tmp.resolve("shard1").toString(), fake.toString(),
                "--output-dir", tmp.resolve("m2").toString());
        assertThat(overlap.exitCode()).isEqualTo(2);
        assertThat(overlap.err()).contains("appears in two shards");
    }

    /** A shard left without a conversation says why once, on its one error line, and exits 2 (it said nothing). */
    @Test
    void aShardWithNoConversationSaysWhyOnOneErrorLine() throws Exception {
        final Path input = Files.writeString(tmp.resolve("one.jsonl"), "{\"text\": \"hello there\"}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file",
                    input.toString(), "--custom-dataset-type", "single_turn", "--request-count", "2",
                    "--concurrency", "2", "--shard", "2/2", "--tokenizer", "builtin", "--artifact-dir",
                    tmp.resolve("empty").toString());
            assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
            assertThat(r.all().lines().filter(l -> l.startsWith("error:")).toList()).as(r.all())
                    .containsExactly("error: shard 2/2 has no conversation of the 1 in the dataset");
        }
    }
}
