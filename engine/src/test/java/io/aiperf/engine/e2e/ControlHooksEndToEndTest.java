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

/** The control-hooks contract against the real mock over loopback. */
class ControlHooksEndToEndTest {
    @TempDir
    Path tmp;

    private static MockServerConfig withFaults(final String... faults) {
        return MockServerConfig.fast().withFaults(faults);
    }

    private Runs.Result profile(final Path dir, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "your-model", "--endpoint-type", "chat",
                "--streaming", "--concurrency", "4", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void quickStartWithHooksAndWarmupOrdersEvents() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("order");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "100",
                    "--warmup-request-count", "8", "--reset-kv-cache", "--server-profiler");
            assertThat(r.exitCode()).isZero();
            final List<String> events = mock.controlState().events();
            assertThat(events.get(0)).isEqualTo("reset");
            final int start = events.indexOf("start_profile");
            assertThat(events.subList(1, start)).hasSize(8).containsOnly("inference");
            assertThat(events.subList(start + 1, events.size() - 1)).hasSize(100).containsOnly("inference");
            assertThat(events.get(events.size() - 1)).isEqualTo("stop_profile");
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
            assertThat(mock.controlState().profilerStarts()).isEqualTo(1);
            assertThat(mock.controlState().profilerStops()).isEqualTo(1);
            assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl"))).hasSize(100);
            final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
            assertThat(outcome.path("status").asText()).isEqualTo("completed");
            assertThat(outcome.path("hooks").size()).isEqualTo(3);
            for (final String f : List.of("profile_export.jsonl", "inputs.json")) {
                assertThat(Files.readString(dir.resolve(f))).doesNotContain("reset_prefix_cache")
                        .doesNotContain("start_profile").doesNotContain("stop_profile");
            }
            assertThat(r.out()).contains("Control hooks:");
        }
    }

    @Test
    void resetRetriesTransientStatusesWithBackoff() throws Exception {
        try (MockServer mock = MockServer.start(withFaults("/reset_prefix_cache=status:503:2"))) {
            final Path dir = tmp.resolve("retry");
            final long t0 = System.nanoTime();
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "4", "--reset-kv-cache");
            final double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(r.exitCode()).isZero();
            final JsonNode hook = Runs.json(dir.resolve("cell_outcome.json")).path("hooks").get(0);
            assertThat(hook.path("attempts").asInt()).isEqualTo(3);
            assertThat(hook.path("result").asText()).isEqualTo("ok");
            // slept 1 s + 2 s (exactly 3 attempts above); a busy machine may only make it later
            assertThat(hook.path("elapsed_ms").asLong()).isGreaterThanOrEqualTo(2900L);
            assertThat(seconds).isGreaterThan(2.9);
        }
    }

    @Test
    void resetNotFoundFailsAtOnceWithoutInference() throws Exception {
        try (MockServer mock = MockServer.start(withFaults("/reset_prefix_cache=status:404"))) {
            final Path dir = tmp.resolve("404");
            final String url = mock.url().replace("://", "://user:pw@");
            final Runs.Result r = profile(dir, "--url", url, "--request-count", "4", "--reset-kv-cache");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(mock.controlState().inferenceRequests()).isZero();
            final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
            assertThat(outcome.path("status").asText()).isEqualTo("failed");
            assertThat(outcome.path("error").asText()).contains("status 404")
                    .contains(mock.url() + "/reset_prefix_cache").doesNotContain("pw");
            assertThat(outcome.path("hooks").get(0).path("attempts").asInt()).isEqualTo(1);
            assertThat(r.all()).doesNotContain("user:pw");
        }
    }

    @Test
    void zeroRetryBudgetMeansOneAttempt() throws Exception {
        try (MockServer mock = MockServer.start(withFaults("/reset_prefix_cache=status:503"))) {
            final Path yaml = tmp.resolve("r.yaml");
            Files.writeString(yaml, "benchmark:\n  endpoint:\n    reset_kv_cache:\n      max_retry_seconds: 0\n");
            final Path dir = tmp.resolve("zero");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "4", "-f", yaml.toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(mock.controlState().calls("/reset_prefix_cache")).isEqualTo(1);
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }

    @Test
    void profilerStartFailureSendsNoProfilingRequests() throws Exception {
        try (MockServer mock = MockServer.start(withFaults("/start_profile=status:500"))) {
            final Path dir = tmp.resolve("start500");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "10",
                    "--warmup-request-count", "3", "--server-profiler");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(3); // warmup only
            assertThat(Runs.json(dir.resolve("cell_outcome.json")).path("error").asText())
                    .contains("server_profiler start failed").contains("status 500");
        }
    }

    @Test
    void profilerStopFailureIsOnlyAWarning() throws Exception {
        try (MockServer mock = MockServer.start(withFaults("/stop_profile=status:500"))) {
            final Path dir = tmp.resolve("stop500");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "10", "--server-profiler");
            assertThat(r.exitCode()).isZero();
            final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
            assertThat(outcome.path("status").asText()).isEqualTo("completed");
            assertThat(outcome.path("warnings").get(0).asText()).startsWith("server_profiler stop failed for 1 origin(s)");
            assertThat(r.all()).contains("server_profiler stop failed for 1 origin(s)");
            assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl"))).hasSize(10);
        }
    }

    @Test
    void urlsOnOneOriginGetOneCallEach() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("dedup");
            final Runs.Result r = profile(dir, "--url", mock.url() + "/v1", "--url", mock.url() + "/v1/chat/completions",
                    "--request-count", "6", "--reset-kv-cache", "--server-profiler");
            assertThat(r.exitCode()).isZero();
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
            assertThat(mock.controlState().profilerStarts()).isEqualTo(1);
            assertThat(mock.controlState().profilerStops()).isEqualTo(1);
        }
    }

    @Test
    void partialStartIsRolledBack() throws Exception {
        try (MockServer first = MockServer.start(MockServerConfig.fast());
             MockServer second = MockServer.start(withFaults("/start_profile=status:500"))) {
            final Path dir = tmp.resolve("rollback");
            final Runs.Result r = profile(dir, "--url", first.url(), "--url", second.url(), "--request-count", "6",
                    "--server-profiler");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(first.controlState().events()).containsExactly("start_profile", "stop_profile");
            assertThat(second.controlState().profilerStops()).isZero();
            assertThat(first.controlState().inferenceRequests() + second.controlState().inferenceRequests()).isZero();
        }
    }

    @Test
    void seamlessPhaseStopsProfilerAfterItsDrain() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 2))) {
            assertThat(twoPhases(mock, "- {name: second, kind: profiling, concurrency: 4, requests: 8, seamless: true}")
                    .exitCode()).isZero();
            final List<String> events = mock.controlState().events();
            // Overlapping profiling phases share one session: one start before any request, one stop after all.
            assertThat(events.get(0)).isEqualTo("start_profile");
            assertThat(events.get(events.size() - 1)).isEqualTo("stop_profile");
            assertThat(events.stream().filter("inference"::equals).count()).isEqualTo(16);
            assertThat(mock.controlState().profilerStops()).isEqualTo(1);
        }
    }

    /** A YAML run of one profiling phase of 8 requests followed by {@code second} (a phase list item). */
    private Runs.Result twoPhases(final MockServer mock, final String second) throws Exception {
        final Path yaml = tmp.resolve("phases.yaml");
        Files.writeString(yaml, """
                benchmark:
                  model: m
                  endpoint: {url: %s, streaming: true, server_profiler: true}
                  dataset: {isl: 16, osl: 5}
                  phases:
                    - {name: first, kind: profiling, concurrency: 4, requests: 8}
                    %s
                  artifacts: {dir: %s}
                """.formatted(mock.url(), second, tmp.resolve("phases-out")));
        return Runs.aiperf("profile", "-f", yaml.toString());
    }

    @Test
    void controlPostsCarryTheApiKey() throws Exception {
        final String key = "sk-hooks-SECRET-1";
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(key))) {
            final Path dir = tmp.resolve("authhooks");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--api-key", key, "--request-count", "4",
                    "--reset-kv-cache", "--server-profiler");
            assertThat(r.exitCode()).isZero();
            assertThat(mock.controlState().authorizedAdminCalls()).isEqualTo(3);
            assertThat(Runs.allText(dir)).doesNotContain(key);
            assertThat(r.all()).doesNotContain(key);
        }
    }

    @Test
    void profilerStopWaitsForTheDrainWhenTheNextPhaseIsSeamless() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(30, 2))) {
            assertThat(twoPhases(mock, "- {name: tail, kind: warmup, concurrency: 4, requests: 40, seamless: true}")
                    .exitCode()).isZero();
            final List<String> events = mock.controlState().events();
            final int stop = events.indexOf("stop_profile");
            // All 8 measured requests completed before the stop, and the seamless phase was still running.
            assertThat(events.subList(0, stop).stream().filter("inference"::equals).count()).isGreaterThanOrEqualTo(8);
            assertThat(stop).isLessThan(events.size() - 1);
            assertThat(mock.controlState().profilerStops()).isEqualTo(1);
        }
    }

    @Test
    void sglangStyleFlushPathWithQueryAndControlStateOverHttp() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("flush");
            final Runs.Result r = profile(dir, "--url", mock.url(), "--request-count", "3",
                    "--reset-kv-cache-path", "/flush_cache?timeout=30");
            assertThat(r.exitCode()).isZero();
            assertThat(mock.controlState().calls("/flush_cache")).isEqualTo(1);
            final java.net.http.HttpResponse<String> state = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(mock.url() + "/admin/control-state")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            final JsonNode json = Runs.JSON.readTree(state.body());
            assertThat(json.path("reset_count").asInt()).isEqualTo(1);
            assertThat(json.path("inference_requests").asInt()).isEqualTo(3);
            assertThat(json.path("events").get(0).asText()).isEqualTo("reset");
        }
    }
}
