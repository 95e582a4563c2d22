package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Shapes, precedence and hook merging of the YAML loader (reference §1.2, §2). */
class ConfigLoaderTest {
    @Test
    void camelCaseAndShorthandsAreAccepted() {
        final BenchmarkConfig c = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint:
                    url: localhost:9000
                    resetKvCache: {path: "/flush_cache?timeout=30", timeoutSeconds: 5}
                  dataset: {isl: 64}
                  phases: {concurrency: 3, requests: 7}
                """, new CliOverlay());
        assertThat(c.endpoint().urls()).containsExactly("http://localhost:9000");
        assertThat(c.endpoint().resetKvCache()).isEqualTo(new ResetKvCacheConfig("/flush_cache?timeout=30", 5, 60));
        assertThat(c.dataset().islMean()).isEqualTo(64);
        assertThat(c.phases()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo("profiling");
            assertThat(p.concurrency()).isEqualTo(3);
            assertThat(p.requests()).isEqualTo(7);
        });
    }

    @Test
    void typedFlagsBeatYamlAndBareHookFlagsKeepYamlFields() {
        final CliOverlay cli = new CliOverlay()
                .set("endpoint.reset_kv_cache", true, "--reset-kv-cache")
                .set("endpoint.server_profiler.timeout_seconds", 7.0, "--server-profiler-timeout-seconds")
                .phase("profiling", "concurrency", 9, "--concurrency");
        final BenchmarkConfig c = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint:
                    reset_kv_cache: {path: /custom}
                  phases:
                    - {name: profiling, concurrency: 2, requests: 5}
                """, cli);
        assertThat(c.endpoint().resetKvCache().path()).isEqualTo("/custom");
        assertThat(c.endpoint().serverProfiler()).isEqualTo(new ServerProfilerConfig("/start_profile", "/stop_profile", 7));
        assertThat(c.phases().get(0).concurrency()).isEqualTo(9);
        assertThat(c.phases().get(0).requests()).isEqualTo(5);
    }

    @Test
    void phaseRulesAreEnforced() {
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases:
                    - {name: profiling, requests: 5, seamless: true}
                """, new CliOverlay())).hasMessageContaining("seamless is not allowed on the first phase");
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases:
                    - {name: profiling, requests: 5, grace_period: 3}
                """, new CliOverlay())).hasMessageContaining("grace_period");
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases:
                    - {name: profiling, type: poisson, requests: 5}
                """, new CliOverlay())).hasMessageContaining("rate-controlled phases require rate");
    }

    @Test
    void missingEnvironmentVariableIsNamed() {
        assertThatThrownBy(() -> ConfigLoader.fromYaml("benchmark:\n  model: ${AIPERF_TEST_UNSET_VAR_X}\n",
                new CliOverlay())).hasMessageContaining("AIPERF_TEST_UNSET_VAR_X");
        assertThat(ConfigLoader.fromYaml("benchmark:\n  model: ${AIPERF_TEST_UNSET_VAR_X:fallback}\n",
                new CliOverlay()).primaryModel()).isEqualTo("fallback");
    }
}
