package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's --request-rate-series: the open loop's schedule follows the series (src-docs/cli.md, "Rate series"). */
class RateSeriesEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void theScheduleFollowsTheSeries() throws Exception {
        // 4 req/s for the first second, then 50 req/s: constant arrivals 250 ms apart, then 20 ms apart.
        final Path series = Files.writeString(tmp.resolve("rate.json"),
                "{\"points\":[{\"time_s\":0,\"qps\":4},{\"time_s\":1,\"qps\":4},{\"time_s\":1.001,\"qps\":50}]}");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "24",
                    "--request-rate-series", series.toString(), "--request-rate-mode", "constant",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<Long> due = new ArrayList<>();
            for (final JsonNode line : Runs.jsonl(dir.resolve("profile_export.jsonl"))) {
                due.add(line.path("metadata").path("credit_issued_ns").asLong());
            }
            assertThat(due).hasSize(24);
            due.sort(Long::compare);
            final List<Double> gapsMs = new ArrayList<>();
            for (int i = 1; i < due.size(); i++) {
                gapsMs.add((due.get(i) - due.get(i - 1)) / 1e6);
            }
            // Medians: a stall on a busy machine re-anchors one arrival, not the schedule's shape.
            assertThat(median(gapsMs.subList(0, 3))).isCloseTo(250, org.assertj.core.data.Offset.offset(5.0));
            assertThat(median(gapsMs.subList(8, 23))).isCloseTo(20, org.assertj.core.data.Offset.offset(2.0));
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.path("input_config").toString()).contains("rate_series");
        }
    }

    @Test
    void aSeriesAndARateTogetherOrABadFileAreUsageErrors() throws Exception {
        final Path series = Files.writeString(tmp.resolve("r.json"), "{\"points\":[{\"time_s\":0,\"qps\":5}]}");
        final Runs.Result both = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--request-rate", "5",
                "--request-rate-series", series.toString());
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err().strip()).contains("--request-rate-series").contains("not both").doesNotContain("\n");
        final Path bad = Files.writeString(tmp.resolve("bad.json"),
                "{\"points\":[{\"time_s\":5,\"qps\":5},{\"time_s\":1,\"qps\":2}]}");
        final Runs.Result order = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--request-rate-series", bad.toString());
        assertThat(order.exitCode()).isEqualTo(2);
        assertThat(order.err().strip()).contains("--request-rate-series").contains("increase").doesNotContain("\n");
        final Runs.Result missing = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--request-rate-series", tmp.resolve("absent.json").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err().strip()).contains("--request-rate-series").doesNotContain("\n");
    }

    private static double median(final List<Double> values) {
        final List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
