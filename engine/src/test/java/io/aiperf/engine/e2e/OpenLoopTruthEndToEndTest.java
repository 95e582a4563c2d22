package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An open loop that cannot deliver its rate says so, with counts, instead of passing a lower load as the target. */
class OpenLoopTruthEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aCeilingThatHoldsTheLoopBackIsCountedAndWarned() throws Exception {
        // 200 req/s asked; one request in flight at a time, each taking about 50 ms: at most ~20 req/s possible.
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(50, 1))) {
            final Path dir = tmp.resolve("behind");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", slow.url(), "--request-rate", "200",
                    "--arrival-pattern", "constant", "--concurrency", "1", "--benchmark-duration", "1",
                    "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            // One short line on the console naming the limit; every figure in the cell's log.
            assertThat(r.err()).contains("warning: phase profiling: the --concurrency ceiling held the load to ")
                    .contains(" (details in logs/aiperf.log)").doesNotContain("the open loop asked for");
            assertThat(java.nio.file.Files.readString(dir.resolve("logs").resolve("aiperf.log")))
                    .contains("WARNING phase profiling: the open loop asked for 200.0 req/s and achieved")
                    .contains("arrival(s) were skipped after stalls").contains("waited for the --concurrency ceiling")
                    .contains("these numbers understate what the rate would do");
            final JsonNode loop = Runs.json(dir.resolve("profile_export_aiperf.json")).path("client_health")
                    .path("open_loop").path("profiling");
            assertThat(loop.path("target_rate").asDouble()).isEqualTo(200.0);
            assertThat(loop.path("achieved_rate").asDouble()).isLessThan(100.0);
            assertThat(loop.path("missed_arrivals").asLong()).isPositive();
            assertThat(loop.path("ceiling_waits").asLong()).isPositive();
            assertThat(loop.path("client_limited").asBoolean()).as("the ceiling held it back, not the client").isFalse();
            assertThat(summary0(dir).path("client_health").path("client_limited").asBoolean()).isFalse();
            assertThat(loop.path("sent").asLong() + loop.path("missed_arrivals").asLong()).isGreaterThan(100);
            // Measured from the intended start, the queueing behind the ceiling shows: coordinated omission, named.
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final double fromSend = summary.path("request_latency").path("p50").asDouble();
            final double fromIntended = summary.path("request_latency_from_intended").path("p50").asDouble();
            assertThat(fromIntended).isGreaterThan(fromSend + 10);
            assertThat(r.out()).contains("Request Latency (from intended start)");
            // Per request, the difference is exactly the wait from the schedule's credit to the write.
            final java.util.List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(lines).isNotEmpty().allSatisfy(line -> {
                final JsonNode meta = line.path("metadata");
                final double queuedMs = (meta.path("request_start_ns").asLong() - meta.path("credit_issued_ns").asLong()) / 1e6;
                final JsonNode m = line.path("metrics");
                assertThat(m.path("request_latency_from_intended").path("value").asDouble()
                        - m.path("request_latency").path("value").asDouble())
                        .isCloseTo(queuedMs, org.assertj.core.data.Offset.offset(0.01));
                assertThat(line.path("client").has("pool_wait_ns")).isTrue();
            });
            final JsonNode transport = summary.path("client_health").path("transport");
            assertThat(transport.path("requests").asLong()).isEqualTo(lines.size());
            assertThat(transport.path("pool_wait_max_ms").asDouble())
                    .isGreaterThanOrEqualTo(transport.path("pool_wait_p50_ms").asDouble());
        }
    }

    private static JsonNode summary0(final Path dir) throws java.io.IOException {
        return Runs.json(dir.resolve("profile_export_aiperf.json"));
    }

    @Test
    void aLoopThatKeepsUpReportsItsHealthWithoutAWarning() throws Exception {
        try (MockServer fast = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("on-time");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", fast.url(), "--request-rate", "20",
                    "--arrival-pattern", "constant", "--request-count", "10", "--isl", "8", "--osl", "2",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode loop = Runs.json(dir.resolve("profile_export_aiperf.json")).path("client_health")
                    .path("open_loop").path("profiling");
            assertThat(loop.path("sent").asLong()).isEqualTo(10);
            assertThat(loop.path("target_rate").asDouble()).isEqualTo(20.0);
            // a constant schedule draws exactly the rate asked, however late the sends were
            assertThat(loop.path("schedule_rate").asDouble()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(1e-6));
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.path("request_latency_from_intended").path("avg").asDouble())
                    .isGreaterThanOrEqualTo(summary.path("request_latency").path("avg").asDouble());
            assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl")).get(0).path("metrics")
                    .has("request_latency_from_intended")).isTrue();
            // a rate's schedule is no replayed one: upstream writes the replay-schedule lag for a fixed schedule only
            assertThat(summary.has("replay_sched_lag_p50")).isFalse();
            // On a busy machine a send may be late or a stall may skip arrivals; the console says exactly what the
            // run's own client_health says, and a loop that delivered its schedule is not blamed for a lag.
            final JsonNode health = summary.path("client_health");
            final boolean limited = health.path("client_limited").asBoolean();
            assertThat(r.err().contains("the client limited the run")).as(r.err()).isEqualTo(limited);
            final java.util.List<String> by = new java.util.ArrayList<>();
            health.path("client_limited_by").forEach(n -> by.add(n.asText()));
            assertThat(by.contains("open_loop")).isEqualTo(loop.path("client_limited").asBoolean());
            assertThat(by.contains("pool_wait"))
                    .isEqualTo(health.path("transport").path("pool_wait_p99_ms").asDouble() > 1.0);
            assertThat(limited).isEqualTo(!by.isEmpty());
            assertThat(health.path("transport").path("connects_opened").isIntegralNumber()).isTrue();
            if (loop.path("missed_arrivals").asLong() == 0 && loop.path("late_sends").asLong() == 0) {
                assertThat(loop.path("client_limited").asBoolean()).as(loop.toString()).isFalse();
                assertThat(r.err()).doesNotContain("phase profiling: the");
            }
            if (!limited) {
                assertThat(r.err()).doesNotContain("lower than asked");
            }
        }
    }
}
