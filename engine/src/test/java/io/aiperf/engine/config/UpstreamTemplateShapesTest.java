package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The shapes upstream AIPerf 0.13's ramping, request_cancellation and time_based_soak templates use, each with the
 * meaning upstream's schema gives it.
 */
class UpstreamTemplateShapesTest {
    private static BenchmarkConfig load(final String body, final CliOverlay cli) {
        return ConfigLoader.fromYaml("benchmark:\n  model: m\n" + body.indent(2), cli);
    }

    private static BenchmarkConfig load(final String body) {
        return load(body, new CliOverlay());
    }

    @Test
    void gpuTelemetryAsAMappingIsEnabledByDefaultOnDcgmsPorts() {
        assertThat(load("gpuTelemetry: {enabled: true}\nphases: {requests: 1}").endpoint().gpuTelemetry())
                .containsExactly("http://localhost:9400/metrics", "http://localhost:9401/metrics");
        assertThat(load("gpuTelemetry: {collector: dcgm, mode: summary}\nphases: {requests: 1}").endpoint()
                .gpuTelemetry()).hasSize(2);
        assertThat(load("gpuTelemetry: {enabled: false, urls: [h:1]}\nphases: {requests: 1}").endpoint()
                .gpuTelemetry()).isEmpty();
        assertThat(load("gpuTelemetry: {url: 'gpu-host:9400'}\nphases: {requests: 1}").endpoint().gpuTelemetry())
                .containsExactly("http://gpu-host:9400/metrics");
        assertThat(load("endpoint: {gpu_telemetry: {urls: ['http://a:1/m', 'b:2']}}\nphases: {requests: 1}")
                .endpoint().gpuTelemetry()).containsExactly("http://a:1/m", "http://b:2/metrics");
    }

    @Test
    void gpuTelemetryMappingsThisEngineCannotServeAreOneLine() {
        assertThatThrownBy(() -> load("gpuTelemetry: {collector: pynvml}\nphases: {requests: 1}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("benchmark.endpoint.gpu_telemetry.collector")
                .hasMessageContaining("local library");
        assertThatThrownBy(() -> load("gpuTelemetry: {metricsFile: gpu.csv}\nphases: {requests: 1}"))
                .hasMessageContaining("benchmark.endpoint.gpu_telemetry.metrics_file");
        assertThatThrownBy(() -> load("gpuTelemetry: {enabled: true, interval: 1}\nphases: {requests: 1}"))
                .hasMessageContaining("benchmark.endpoint.gpu_telemetry.interval: Extra inputs are not permitted");
    }

    @Test
    void aPrefillRampWithoutAPrefillConcurrencyIsAcceptedAndDoesNothing() {
        final BenchmarkConfig c = load("""
                endpoint: {streaming: true}
                phases:
                  - {name: profiling, type: poisson, rate: 5, concurrency: 4, duration: 1, prefillRamp: 30s}
                """);
        assertThat(c.phases().get(0).prefillRampSeconds()).isNull();
        assertThat(c.warnings()).anyMatch(w -> w.contains("prefill_concurrency_ramp_duration has no effect without "
                + "a prefill concurrency"));
        final BenchmarkConfig capped = load("""
                endpoint: {streaming: true}
                phases:
                  - {name: profiling, concurrency: 4, requests: 8, prefillConcurrency: 2, prefillRamp: 3s}
                """);
        assertThat(capped.phases().get(0).prefillRampSeconds()).isEqualTo(3.0);
    }

    @Test
    void aPhasesOwnCancellationIsThatPhasesAndTheFlagWinsForProfiling() {
        final String yaml = """
                phases:
                  - {name: warmup, type: concurrency, requests: 4, concurrency: 2, cancellation: {rate: 5}}
                  - {name: profiling, type: poisson, requests: 20, rate: 20, cancellation: {rate: 10.0, delay: 0.5}}
                """;
        final BenchmarkConfig c = load(yaml);
        assertThat(c.phases().get(0).kind()).isEqualTo(PhaseKind.WARMUP);
        assertThat(c.phases().get(0).cancellation()).isEqualTo(new PhaseConfig.Cancellation(5, 0));
        assertThat(c.phases().get(1).cancellation()).isEqualTo(new PhaseConfig.Cancellation(10, 0.5));
        final BenchmarkConfig flagged = load(yaml, new CliOverlay().set("runtime.request_cancellation.rate", 30.0,
                "--request-cancellation-rate"));
        assertThat(flagged.phases().get(1).cancellation()).isNull();
        assertThat(flagged.limits().cancelRatePct()).isEqualTo(30.0);
        assertThat(flagged.phases().get(0).cancellation()).isEqualTo(new PhaseConfig.Cancellation(5, 0));
    }

    @Test
    void aPhasesCancellationIsCheckedField() {
        assertThatThrownBy(() -> load("phases: {requests: 2, cancellation: {rate: 120}}"))
                .hasMessageContaining("benchmark.phases.profiling.cancellation.rate");
        assertThatThrownBy(() -> load("phases: {requests: 2, cancellation: {delay: 1}}"))
                .hasMessageContaining("benchmark.phases.profiling.cancellation.rate: Field required");
        assertThatThrownBy(() -> load("phases: {requests: 2, cancellation: {rate: 1, requests: 3}}"))
                .hasMessageContaining("benchmark.phases.profiling.cancellation.requests: Extra inputs are not "
                        + "permitted");
    }

    @Test
    void aClosedLoopWarmupOfTheFileTakesNoRateFromTheProfilingPhase() {
        final BenchmarkConfig c = load("""
                phases:
                  - {name: warmup, type: concurrency, requests: 40, concurrency: 5}
                  - {name: profiling, type: poisson, rate: 20, concurrency: 8, requests: 10, rateRamp: 2}
                """, new CliOverlay().phase("warmup", "requests", 4, "--warmup-request-count"));
        final PhaseConfig warmup = c.phases().get(0);
        assertThat(warmup.type()).isEqualTo(LoadType.CONCURRENCY);
        assertThat(warmup.rate()).isNull();
        assertThat(warmup.rateRampSeconds()).isNull();
        assertThat(warmup.requests()).isEqualTo(4);
        assertThat(warmup.concurrency()).isEqualTo(5);
    }

    @Test
    void theDatasetsPrefixPromptsAreUpstreamsPlace() {
        final DatasetConfig pool = load("""
                dataset: {prompts: {isl: 64}, prefixPrompts: {poolSize: 10, length: 512}}
                phases: {requests: 2}
                """).dataset();
        assertThat(pool.prefixes()).isEqualTo(new DatasetConfig.Prefixes(10, 512, 0, 0));
        final DatasetConfig system = load("""
                dataset: {prefix_prompts: {shared_system_length: 100, user_context_length: 30}}
                phases: {requests: 2}
                """).dataset();
        assertThat(system.prefixes()).isEqualTo(new DatasetConfig.Prefixes(0, 0, 100, 30));
        assertThatThrownBy(() -> load("dataset: {prefix_prompts: {pool_size: 2, length: 8, "
                + "shared_system_length: 10}}\nphases: {requests: 2}"))
                .hasMessageContaining("benchmark.dataset.prefix_prompts: pool_size/length and "
                        + "shared_system_length/user_context_length are mutually exclusive");
        assertThatThrownBy(() -> load("dataset: {prefix_prompts: {pool: 2}}\nphases: {requests: 2}"))
                .hasMessageContaining("benchmark.dataset.prefix_prompts.pool: Extra inputs are not permitted");
    }

    @Test
    void mediaSizesMayBeNumbersAndTheAudiosChannelsAreUpstreams() {
        final SyntheticMedia media = load("""
                dataset:
                  images: {width: 512, height: 256, format: jpeg}
                  audio: {length: 5, channels: 2}
                phases: {requests: 2}
                """).dataset().media();
        assertThat(media.images().widthMean()).isEqualTo(512.0);
        assertThat(media.images().heightMean()).isEqualTo(256.0);
        assertThat(media.audio().lengthMean()).isEqualTo(5.0);
        assertThat(media.audio().channels()).isEqualTo(2);
    }

    @Test
    void upstreamsTraceAndPublicDatasetSpellings() {
        assertThat(load("artifacts: {trace: true}\nphases: {requests: 2}").artifacts().exportHttpTrace()).isTrue();
        assertThatThrownBy(() -> load("artifacts: {trace: true, exportHttpTrace: false}\nphases: {requests: 2}"))
                .hasMessageContaining("benchmark.artifacts.trace: give either 'trace' or 'export_http_trace'");
        // upstream's public_dataset template names the dataset in `dataset:`; here it is public_dataset
        assertThatThrownBy(() -> load("dataset: {type: public, dataset: no-such-set}\nphases: {requests: 2}"))
                .hasMessageContaining("benchmark.dataset.public_dataset");
    }
}
