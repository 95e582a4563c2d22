package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate on capacity over real searches (src-docs/capacity.md): a baseline whose mock serves 16 requests at once
 * and a candidate whose mock serves 8 fail a relative capacity rule; the 8-slot mock against itself passes. Each
 * request takes 20 + 16 x 2 ms, so a TTFT p95 below 45 ms holds exactly up to the slot count.
 */
class CapacityGateEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result search(final MockServer mock, final Path dir, final String... more) {
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u",
                mock.url(), "--streaming", "--isl", "20", "--osl", "16", "--request-count", "40",
                "--warmup-request-count", "4", "--tokenizer", "builtin", "--search-recipe", "max-throughput-ttft-sla",
                "--ttft-sla-ms", "45", "--concurrency-max", "16", "--artifact-dir", dir.toString()));
        args.addAll(java.util.List.of(more));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void halfTheSlotsFailsARelativeCapacityRuleAndTheSameMockTwicePasses() throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, """
                rules:
                  - {metric: capacity, max_decrease_pct: 25}
                  - {metric: capacity, min: 4}
                """);
        try (MockServer sixteen = MockServer.start(MockServerConfig.fast().withLatency(20, 2).withMaxSlots(16));
             MockServer eight = MockServer.start(MockServerConfig.fast().withLatency(20, 2).withMaxSlots(8))) {
            final Path baseline = tmp.resolve("baseline");
            final Runs.Result base = search(sixteen, baseline);
            assertThat(base.exitCode()).as(base.err()).isZero();
            if (Runs.clientStarved(baseline)) {
                return; // a starved client's points are invalid or slow: the capacity is the machine's, not the mock's
            }
            assertThat(Runs.json(baseline.resolve("search_result.json")).path("capacity").asInt()).isEqualTo(16);

            final Path candidate = tmp.resolve("candidate");
            final Runs.Result failed = search(eight, candidate, "--gate", rules.toString(), "--baseline",
                    baseline.toString());
            if (Runs.clientStarved(candidate)) {
                return;
            }
            assertThat(failed.exitCode()).as(failed.out() + failed.err()).isEqualTo(1);
            final JsonNode gate = Runs.json(candidate.resolve("gate_result.json"));
            assertThat(gate.path("verdict").asText()).isEqualTo("failed");
            final JsonNode relative = gate.path("rules").get(0);
            assertThat(relative.path("metric").asText()).isEqualTo("capacity");
            assertThat(relative.path("status").asText()).as(relative.toString()).isEqualTo("failed");
            assertThat(relative.path("baseline").asDouble()).isEqualTo(16);
            assertThat(relative.path("candidate").asDouble()).isBetween(7.0, 9.0);
            assertThat(gate.path("rules").get(1).path("status").asText()).as("capacity >= 4").isEqualTo("passed");

            final Runs.Result again = search(eight, tmp.resolve("again"), "--gate", rules.toString(), "--baseline",
                    candidate.toString());
            assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
            final JsonNode same = Runs.json(tmp.resolve("again").resolve("gate_result.json"));
            assertThat(same.path("verdict").asText()).as(same.toString()).isEqualTo("passed");
            assertThat(same.path("rules").get(0).path("message").asText()).contains("capacity");
        }
    }
}
