package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Shapes, precedence and hook merging of the YAML loader (the control-hooks contract in src-docs/control-hooks.md and AIPerf's configuration docs). */
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
    void theSweepTableIsOnUnlessTheEnvelopeOrTheFlagTurnsItOff() {
        final String yaml = """
                %s
                benchmark:
                  model: m
                  phases: {concurrency: 1, requests: 2}
                """;
        assertThat(ConfigLoader.fromYaml(yaml.formatted(""), new CliOverlay()).multiRun().sweepTable()).isTrue();
        assertThat(ConfigLoader.fromYaml(yaml.formatted("noSweepTable: true"), new CliOverlay()).multiRun().sweepTable())
                .isFalse();
        assertThat(ConfigLoader.fromYaml(yaml.formatted(""), new CliOverlay().noSweepTable(true)).multiRun().sweepTable())
                .isFalse();
    }

    @Test
    void warmupFlagsAloneWarmUpBeforeTheDefaultProfilingPhase() {
        final CliOverlay cli = new CliOverlay().set("models", java.util.List.of("m"), "--model")
                .phase("warmup", "kind", "warmup", "--warmup-request-count")
                .phase("warmup", "requests", 2, "--warmup-request-count");
        final BenchmarkConfig c = ConfigLoader.load(null, cli, java.util.Map.of());
        assertThat(c.phases()).extracting(PhaseConfig::kind).containsExactly(PhaseKind.WARMUP, PhaseKind.PROFILING);
        assertThat(c.phases().get(0).requests()).isEqualTo(2);
        // a file that names its phases still says which profiling phase there is
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases:
                    - {name: warmup, kind: warmup, requests: 2}
                """, new CliOverlay())).hasMessageContaining("at least one phase of kind profiling");
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
    void concurrencyBurstIsTheClosedLoopAndTakesNoRate() {
        final BenchmarkConfig c = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases: {concurrency: 3, requests: 7}
                """, new CliOverlay().phase("profiling", "type", "concurrency_burst", "--arrival-pattern"));
        assertThat(c.phases().get(0).type()).isEqualTo(LoadType.CONCURRENCY);
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases: {concurrency: 3, requests: 7}
                """, new CliOverlay().phase("profiling", "type", "concurrency_burst", "--arrival-pattern")
                .phase("profiling", "rate", 5.0, "--request-rate")))
                .hasMessageContaining("--request-rate").hasMessageContaining("has no rate");
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

    @Test
    void anchorsAliasesAndMergeKeysResolveAsYamlDefines() {
        final BenchmarkConfig c = ConfigLoader.fromYaml("""
                benchmark:
                  model: &m llama
                  endpoint:
                    url: localhost:9000
                    headers: &hdrs {X-Team: perf, X-Env: ci}
                    extra: {served_model: *m, copy: *hdrs}
                  phases:
                    - &warm {name: warmup, kind: warmup, concurrency: 4, requests: 9}
                    - {<<: *warm, name: profiling, kind: profiling, requests: 11}
                """, new CliOverlay());
        assertThat(c.primaryModel()).isEqualTo("llama");
        assertThat(c.endpoint().headers()).containsEntry("X-Team", "perf").containsEntry("X-Env", "ci");
        assertThat(c.endpoint().extra().path("served_model").asText()).isEqualTo("llama");
        assertThat(c.endpoint().extra().path("copy").size()).isEqualTo(2);
        assertThat(c.phases()).hasSize(2);
        assertThat(c.phases().get(1).name()).isEqualTo("profiling");
        assertThat(c.phases().get(1).concurrency()).isEqualTo(4);
        assertThat(c.phases().get(1).requests()).isEqualTo(11);
    }

    @Test
    void duplicateKeysAreAnErrorNamingBothLines() {
        assertThatThrownBy(() -> ConfigLoader.fromYaml("""
                benchmark:
                  model: a
                  endpoint: {url: localhost:9000}
                  model: b
                """, new CliOverlay())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("duplicate key").hasMessageContaining("model")
                .hasMessageContaining("line 2").hasMessageContaining("line 4");
    }

    @Test
    @org.junit.jupiter.api.Timeout(300) // a hang guard: the bomb used to run without end
    void aliasBombsAndHugeFilesAreRefused(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path tmp)
            throws Exception {
        final StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 12; i++) {
            bomb.append("a").append(i).append(": &a").append(i).append(" [").append(("*a" + (i - 1) + ", ").repeat(9))
                    .append("*a").append(i - 1).append("]\n");
        }
        assertThatThrownBy(() -> ConfigLoader.fromYaml(bomb.toString(), new CliOverlay()))
                .isInstanceOf(ConfigException.class);
        // Under the alias cap: 69 aliases, three per level, in about 500 bytes, expand to 3^24 values.
        final StringBuilder small = new StringBuilder("b0: &b0 [x, x, x]\n");
        for (int i = 1; i < 24; i++) {
            small.append('b').append(i).append(": &b").append(i).append(" [*b").append(i - 1).append(", *b")
                    .append(i - 1).append(", *b").append(i - 1).append("]\n");
        }
        assertThat(small.length()).isLessThan(700);
        assertThatThrownBy(() -> YamlLoader.parse(small.toString(), "small.yaml", java.util.Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("expands to more than");
        final java.nio.file.Path big = tmp.resolve("big.yaml");
        try (var out = java.nio.file.Files.newBufferedWriter(big)) {
            final String line = "# " + "x".repeat(1000) + "\n";
            for (int i = 0; i < 17_000; i++) {
                out.write(line);
            }
        }
        assertThatThrownBy(() -> YamlLoader.load(big, java.util.Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("a config file may have at most");
    }
}
