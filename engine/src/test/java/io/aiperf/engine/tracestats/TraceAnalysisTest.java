package io.aiperf.engine.tracestats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's trace statistics, worked out by hand for four rows and blocks of 4 tokens. */
class TraceAnalysisTest {
    @TempDir
    Path tmp;

    /**
     * A [1,2,3] isl 10, B [1,2] isl 8, C no hashes isl 5, D [1,5,6] isl 12. Prefixes (1)x3 (1,2)x2 (1,2,3) (1,5)
     * (1,5,6): 5 unique, 5 of 8 reused. Context: A two shared blocks (8), B all shared (its isl, 8), C 0, D one (4).
     * Hit rates: A 0 (nothing seen yet), B 1, D 1/3; C has no hashes and no hit rate.
     */
    private Path trace() throws Exception {
        return Files.writeString(tmp.resolve("trace.jsonl"), """
                {"timestamp": 0, "input_length": 10, "output_length": 2, "hash_ids": [1, 2, 3]}
                {"timestamp": 5, "input_length": 8, "output_length": 4, "hash_ids": [1, 2]}

                {"timestamp": 9, "input_length": 5, "output_length": 6}
                {"timestamp": 20, "input_length": 12, "output_length": 8, "hash_ids": [1, 5, 6]}
                """);
    }

    @Test
    void countsPrefixesContextAndHitRatesAsUpstream() throws Exception {
        final JsonNode j = TraceAnalysis.of(trace(), 4).toJson();
        assertThat(j.path("total_requests").asInt()).isEqualTo(4);
        assertThat(j.path("unique_prefixes").asInt()).isEqualTo(5);
        assertThat(j.path("num_prefix_groups").asInt()).isEqualTo(1);
        assertThat(j.path("prefix_reuse_ratio").asDouble()).isEqualTo(5.0 / 8);
        assertThat(j.path("cache_hit_rate").asDouble()).isCloseTo((0 + 1 + 1.0 / 3) / 3, within(1e-12));
        assertThat(j.path("min_isl").asInt()).isEqualTo(5);
        assertThat(j.path("max_isl").asInt()).isEqualTo(12);
        assertThat(j.path("avg_isl").asDouble()).isEqualTo(8.75);
        assertThat(j.path("avg_osl").asDouble()).isEqualTo(5.0);
        final JsonNode isl = j.path("isl_stats");
        assertThat(isl.path("median").asDouble()).isEqualTo(9.0); // between 8 and 10
        assertThat(isl.path("p25").asDouble()).isEqualTo(7.25); // NumPy's linear: 5 + 0.75 * 3
        assertThat(isl.path("std_dev").asDouble()).isCloseTo(Math.sqrt(26.75 / 4), within(1e-12)); // population
        assertThat(j.path("context_length_stats").path("mean").asDouble()).isEqualTo((8 + 8 + 0 + 4) / 4.0);
        assertThat(j.path("unique_prompt_length_stats").path("mean").asDouble()).isEqualTo((2 + 0 + 5 + 8) / 4.0);
        assertThat(j.path("hit_rate_stats").path("max").asDouble()).isEqualTo(1.0);
    }

    @Test
    void theConsoleReportHasUpstreamsLines() throws Exception {
        final String text = TraceAnalysis.of(trace(), 4).render();
        assertThat(text).contains("Trace Analysis Report", "Total requests:        4",
                "Unique prefixes:       5", "Prefix reuse ratio:    62.50%", "Input Length:\n  Mean:    8.75",
                "  Median:  9.00", "Theoretical Hit Rates:", "Unique Prompt Length:", "Context Length:",
                "Output Length:");
    }

    @Test
    void aTraceWithoutHashesHasNoHitRates() {
        final TraceAnalysis a = TraceAnalysis.of(java.util.List.of(new TraceAnalysis.Row(7, 3, java.util.List.of())),
                512);
        assertThat(a.toJson().path("hit_rate_stats").isNull()).isTrue();
        assertThat(a.toJson().path("cache_hit_rate").asDouble()).isZero();
        assertThat(a.render()).contains("Theoretical Hit Rates:\n  No data");
    }

    @Test
    void aBadLineIsNamedByFileAndNumber() throws Exception {
        final Path bad = Files.writeString(tmp.resolve("bad.jsonl"), "{\"input_length\": 3}\n[1, 2]\n");
        assertThatThrownBy(() -> TraceAnalysis.of(bad, 512)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("bad.jsonl:2: trace line must be a JSON object");
        final Path broken = Files.writeString(tmp.resolve("broken.jsonl"), "{not json\n");
        assertThatThrownBy(() -> TraceAnalysis.of(broken, 512)).hasMessageContaining("broken.jsonl:1: invalid JSON");
        assertThatThrownBy(() -> TraceAnalysis.of(tmp.resolve("missing.jsonl"), 512))
                .hasMessageContaining("file not found");
    }
}
