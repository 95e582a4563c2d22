package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The points a {@code sweep:} expands into (AIPerf's multi-run and sweep docs): grid varies the last axis fastest,
 * zip walks the lists in lockstep, each point's config carries its values, and bad sweeps name their field.
 */
class SweepExpanderTest {
    private static List<Variation> expand(final String sweep) {
        return ConfigLoader.fromYaml(sweep + """
                benchmark:
                  model: m
                  dataset: {isl: 8, osl: 2}
                  phases: [{name: profiling, concurrency: 1, requests: 4}]
                """, new CliOverlay()).variations();
    }

    @Test
    void aGridVariesTheLastAxisFastestAndEachPointCarriesItsValues() {
        final List<Variation> v = expand("""
                sweep:
                  type: grid
                  parameters:
                    concurrency: [1, 4]
                    isl: [16, 32, 64]
                """);
        assertThat(v).extracting(Variation::label).containsExactly("concurrency_1__isl_16", "concurrency_1__isl_32",
                "concurrency_1__isl_64", "concurrency_4__isl_16", "concurrency_4__isl_32", "concurrency_4__isl_64");
        assertThat(v).extracting(Variation::index).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(v.get(4).values()).isEqualTo(Map.of("concurrency", 4, "isl", 32));
        assertThat(v.get(4).config().phases().get(0).concurrency()).isEqualTo(4);
        assertThat(v.get(4).config().dataset().islMean()).isEqualTo(32);
        // what the sweep leaves alone stays as configured
        assertThat(v.get(4).config().phases().get(0).requests()).isEqualTo(4);
    }

    @Test
    void aZipWalksTheListsInLockstepAndADottedPathReachesAnyField() {
        final List<Variation> v = expand("""
                sweep:
                  type: zip
                  parameters:
                    phases.profiling.concurrency: [2, 8]
                    osl: [3, 5]
                """);
        assertThat(v).hasSize(2);
        assertThat(v.get(1).config().phases().get(0).concurrency()).isEqualTo(8);
        assertThat(v.get(1).config().dataset().oslMean()).isEqualTo(5);
        assertThat(v.get(0).config().dataset().oslMean()).isEqualTo(3);
    }

    /**
     * The run's config is a value of its own, its tree with the sweep; no config is changed once bound. The first
     * point's tree has always held the sweep too (its config hash with it), and keeps it; the others do not.
     */
    @Test
    void theRunsConfigIsBuiltByValue() {
        final BenchmarkConfig run = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {urls: ["http://127.0.0.1:9"]}
                  phases: [{name: profiling, concurrency: 1, requests: 4}]
                sweep: {parameters: {concurrency: [1, 2]}}
                """, new CliOverlay());
        assertThat(run.effective().at("/sweep").isMissingNode()).isFalse();
        assertThat(run.variations().get(0).config()).isNotSameAs(run);
        assertThat(run.variations().get(0).config().effective()).isEqualTo(run.effective());
        assertThat(run.variations().get(1).config().effective().at("/sweep").isMissingNode()).isTrue();
    }

    /** A bare name is a sweeping option's key: the axes come from the option table, not from a list here. */
    @Test
    void aSweepingRowsKeyIsAnAxisOfItsOwn() {
        final String yaml = """
                sweep: {parameters: {new_axis: [2, 3]}}
                benchmark:
                  model: m
                  phases: [{name: profiling, concurrency: 1, requests: 4}]
                """;
        final DeclaredOptions table = DeclaredOptions.installed().with(List.of(new DeclaredOptions.Row(
                "benchmark.phases.profiling.new_axis", "--new-axis", DeclaredOptions.Kind.INTEGER, null, true)));
        final List<Variation> v = ConfigLoader.fromYaml(yaml, new CliOverlay(table)).variations();
        assertThat(v).extracting(Variation::label).containsExactly("new_axis_2", "new_axis_3");
        assertThat(v.get(1).config().effective().at("/benchmark/phases/0/new_axis").intValue()).isEqualTo(3);
        final DeclaredOptions notSweeping = DeclaredOptions.installed().with(List.of(new DeclaredOptions.Row(
                "benchmark.phases.profiling.new_axis", "--new-axis", DeclaredOptions.Kind.INTEGER, null)));
        assertThatThrownBy(() -> ConfigLoader.fromYaml(yaml, new CliOverlay(notSweeping)))
                .as("a row that does not sweep is no shorthand: the bare key is a key of benchmark")
                .isInstanceOf(ConfigException.class).hasMessageContaining("new_axis");
        assertThatThrownBy(() -> table.with(List.of(new DeclaredOptions.Row("benchmark.endpoint.new_axis",
                "--other-axis", DeclaredOptions.Kind.INTEGER, null, true))))
                .as("one key, one axis").isInstanceOf(IllegalStateException.class).hasMessageContaining("new_axis");
    }

    @Test
    void badSweepsNameTheirField() {
        assertThatThrownBy(() -> expand("sweep: {type: random, parameters: {concurrency: [1]}}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("sweep.type");
        assertThatThrownBy(() -> expand("sweep: {parameters: {concurrency: [1, 1]}}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("sweep.parameters.concurrency")
                .hasMessageContaining("duplicate value 1");
        assertThatThrownBy(() -> expand("sweep: {type: zip, parameters: {concurrency: [1, 2], isl: [8]}}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("equal length");
        assertThatThrownBy(() -> expand("sweep: {parameters: {concurrency: []}}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("non-empty list");
        assertThatThrownBy(() -> expand("sweep: {parameters: {'.': [1]}}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("dotted path");
    }
}
