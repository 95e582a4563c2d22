package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Other tools' results as baselines: a vLLM bench serve file gates a run of this engine, units and names mapped. */
class ImportEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aVllmBaselineGatesARunAndSaysWhatItDoesNotMeasure() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(30, 1))) {
            final Path run = tmp.resolve("run");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "2",
                    "--request-count", "20", "--isl", "8", "--osl", "4", "--artifact-dir", run.toString()).exitCode())
                    .isZero();
            final double ttft = Runs.json(run.resolve("profile_export_aiperf.json")).path("time_to_first_token")
                    .path("p50").asDouble();
            // A vLLM result whose median TTFT is half of ours: a regression of about +100%.
            final Path vllm = tmp.resolve("vllm-result.json");
            Files.writeString(vllm, """
                    {"backend": "vllm", "completed": 20, "duration": 2.0, "request_throughput": 10.0,
                     "output_throughput": 40.0, "total_token_throughput": 200.0,
                     "mean_ttft_ms": %1$s, "median_ttft_ms": %1$s, "std_ttft_ms": 1.0, "p99_ttft_ms": %1$s,
                     "mean_e2el_ms": 100.0, "median_e2el_ms": 100.0, "std_e2el_ms": 1.0, "p99_e2el_ms": 120.0}
                    """.formatted(ttft / 2));
            final Path rules = tmp.resolve("rules.yaml");
            Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n"
                    + "  - {metric: time_to_second_token, stat: p50, max_increase_pct: 10}\n");
            final Runs.Result r = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", vllm.toString(),
                    "--candidate", run.toString());
            assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("vllm-result.json: imported from vLLM bench serve; it does not measure")
                    .contains("time_to_second_token");
            final JsonNode rulesOut = Runs.json(run.resolve("gate_result.json")).path("rules");
            assertThat(rulesOut.get(0).path("status").asText()).isEqualTo("failed");
            assertThat(rulesOut.get(0).path("delta_pct").asDouble()).isBetween(90.0, 110.0);
            // A metric the baseline tool does not measure leaves its relative rule inactive, and says so.
            assertThat(rulesOut.get(1).path("status").asText()).isEqualTo("inactive");
        }
    }
}
