package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.search.SearchSpec;
import io.aiperf.engine.search.Sla;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SearchRecipesTest {
    private static SearchSpec spec(final String... args) {
        return CommandLine.populateCommand(new SearchOptions(), args).spec(null);
    }

    @Test
    void theThroughputRecipesMaximiseOutputTokenThroughputUnderTheirP95Limit() {
        final SearchSpec itl = spec("--search-recipe", "max-throughput-itl-sla", "--itl-sla-ms", "7");
        assertThat(itl.slas()).containsExactly(new Sla("inter_token_latency", "p95", "lt", 7));
        assertThat(itl.objective()).isEqualTo(new SearchSpec.Objective("output_token_throughput", "avg", "maximize"));
        assertThat(spec("--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "200").slas())
                .containsExactly(new Sla("time_to_first_token", "p95", "lt", 200));
    }

    @Test
    void maxConcurrencyUnderSlaTakesEveryNamedLimitAndItsStyle() {
        final SearchSpec s = spec("--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "100",
                "--tpot-sla-ms", "10", "--e2e-sla-ms", "999", "--error-rate-sla", "0.05", "--search-sla",
                "request_throughput:avg:gt:1", "--search-style", "grid");
        assertThat(s.slas()).extracting(Sla::spec).containsExactly("time_to_first_token:p95:lt:100",
                "inter_token_latency:p95:lt:10", "request_latency:p99:lt:999", "request_error_rate:avg:lt:5",
                "request_throughput:avg:gt:1");
        assertThat(s.planner()).isEqualTo("grid");
        assertThat(s.objective()).isNull();
        assertThat(spec("--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "9").planner())
                .as("monotonic, a bisection, unless told").isEqualTo("bisection");
    }

    @Test
    void maxGoodputUnderSloSetsTheCellsGoodputAndAnAttainmentSlo() {
        final SearchSpec s = spec("--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "100", "--tpot-sla-ms",
                "10.5", "--e2e-sla-ms", "1000");
        assertThat(s.goodput()).containsExactly("time_to_first_token:100", "inter_token_latency:10.5",
                "request_latency:1000");
        assertThat(s.slas()).extracting(Sla::spec).containsExactly("slo_attainment:avg:ge:0.95");
        assertThat(s.objective()).isEqualTo(new SearchSpec.Objective("goodput", "avg", "maximize"));
        assertThat(spec("--search-recipe", "max-goodput-under-slo", "--e2e-sla-ms", "9", "--slo-attainment-fraction",
                "1").slas().get(0).threshold()).isEqualTo(1.0);
        assertThatThrownBy(() -> spec("--search-recipe", "max-goodput-under-slo", "--e2e-sla-ms", "9",
                "--slo-attainment-fraction", "0")).hasMessageContaining("--slo-attainment-fraction");
        assertThatThrownBy(() -> spec("--search-recipe", "max-goodput-under-slo", "--error-rate-sla", "0.1"))
                .hasMessageContaining("--error-rate-sla");
        assertThatThrownBy(() -> spec("--search-sla", "time_to_first_token:p95:lt:5", "--slo-attainment-fraction",
                "0.9")).hasMessageContaining("--slo-attainment-fraction");
    }

    @Test
    void recipeFlagsThatDoNotFitTheRecipeAreUsageErrors() {
        final String[][] cases = {
            {"--search-recipe", "max-concurrency-under-sla"},
            {"--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "9", "--search-style", "bo"},
            {"--search-recipe", "max-concurrency-under-sla", "--error-rate-sla", "5"},
            {"--search-recipe", "max-throughput-itl-sla", "--ttft-sla-ms", "5", "--itl-sla-ms", "5"},
            {"--search-recipe", "max-throughput-itl-sla"},
            {"--search-sla", "time_to_first_token:p95:lt:5", "--e2e-sla-ms", "5"},
            {"--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "5", "--search-metric", "x"},
            {"--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "5", "--search-planner", "grid"},
        };
        final String[] fields = {"--search-recipe", "--search-style", "--error-rate-sla", "--ttft-sla-ms",
            "--itl-sla-ms", "--e2e-sla-ms", "--search-metric", "--search-planner"};
        for (int i = 0; i < cases.length; i++) {
            final String[] c = cases[i];
            assertThatThrownBy(() -> spec(c)).as(String.join(" ", c)).isInstanceOf(ConfigException.class)
                    .hasMessageContaining(fields[i]);
        }
    }

    @Test
    void tiersAreLabelledOrNumberedAndComposeWithTheGlobalSlas() {
        final SearchSpec s = spec("--search-sla-tier", "fast:time_to_first_token:p95:lt:50,inter_token_latency:avg:lt:5",
                "--search-sla-tier", "time_to_first_token:p95:lt:500", "--search-sla", "request_error_rate:avg:lt:1");
        assertThat(s.tiers()).extracting(SearchSpec.SlaTier::label).containsExactly("fast", "tier_2");
        assertThat(s.tiers().get(0).slas()).hasSize(2);
        assertThat(s.slas()).extracting(Sla::spec).containsExactly("request_error_rate:avg:lt:1");
        assertThatThrownBy(() -> spec("--search-sla-tier", "time_to_first_token:p95:lt:5"))
                .hasMessageContaining("--search-sla-tier").hasMessageContaining("2 to 10");
        assertThatThrownBy(() -> spec("--search-sla-tier", "a:time_to_first_token:p95:lt:5", "--search-sla-tier",
                "a:time_to_first_token:p95:lt:9")).hasMessageContaining("label of its own");
    }

    @Test
    void theObjectiveNeedsItsDirectionAndPoolingNeedsAPercentile() {
        final SearchSpec s = spec("--search-sla", "time_to_first_token:p95:lt:5", "--search-metric",
                "request_latency", "--search-stat", "p99", "--search-direction", "minimize",
                "--search-percentile-pooling", "pooled", "--search-initial-points", "3", "--search-random-seed", "7");
        assertThat(s.objective()).isEqualTo(new SearchSpec.Objective("request_latency", "p99", "minimize"));
        assertThat(s.pooling()).isEqualTo("pooled");
        assertThat(s.initialPoints()).isEqualTo(3);
        assertThat(s.randomSeed()).isEqualTo(7L);
        assertThat(s.objective().better(1, 2)).isTrue();
        assertThat(s.objective().better(Double.NaN, 2)).isFalse();
        final String sla = "time_to_first_token:p95:lt:5";
        assertThatThrownBy(() -> spec("--search-sla", sla, "--search-metric", "x"))
                .hasMessageContaining("--search-direction");
        assertThatThrownBy(() -> spec("--search-sla", sla, "--search-direction", "up"))
                .hasMessageContaining("--search-direction").hasMessageContaining("--search-metric");
        assertThatThrownBy(() -> spec("--search-sla", sla, "--search-metric", "x", "--search-direction", "maximize",
                "--search-percentile-pooling", "pooled")).hasMessageContaining("--search-percentile-pooling");
        assertThatThrownBy(() -> spec("--search-sla", sla, "--search-initial-points", "8"))
                .hasMessageContaining("--search-initial-points");
        assertThatThrownBy(() -> spec("--search-sla", sla, "--search-random-seed", "-1"))
                .hasMessageContaining("--search-random-seed");
    }

    @Test
    void theConfigFilesSearchSectionTakesTheSameSettings() throws Exception {
        final SearchOptions o = CommandLine.populateCommand(new SearchOptions(), "--search-direction", "minimize");
        o.defaults(new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                .readTree("""
                        sla_tiers: [fast:time_to_first_token:p95:lt:50, slow:time_to_first_token:p95:lt:500]
                        metric: request_latency
                        stat: p99
                        direction: maximize
                        percentile_pooling: pooled
                        initial_points: 2
                        random_seed: 11
                        """));
        final SearchSpec s = o.spec(null);
        assertThat(s.tiers()).extracting(SearchSpec.SlaTier::label).containsExactly("fast", "slow");
        assertThat(s.objective()).as("the command line wins")
                .isEqualTo(new SearchSpec.Objective("request_latency", "p99", "minimize"));
        assertThat(s.pooling()).isEqualTo("pooled");
        assertThat(s.initialPoints()).isEqualTo(2);
        assertThat(s.randomSeed()).isEqualTo(11L);
    }

    @Test
    void upstreamsAdaptiveSearchWithoutAnSloIsRefusedInOneLineThatSaysWhy() {
        assertThatThrownBy(() -> spec("--search-space", "phases.profiling.concurrency:1,64:int", "--search-metric",
                "output_token_throughput", "--search-direction", "maximize", "--search-max-iterations", "10"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--search-metric: a search without an SLO (upstream's Bayesian optimisation")
                .hasMessageContaining("no maintained Java library").hasMessageContaining("--search-sla")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        // a search space alone still asks for its SLO
        assertThatThrownBy(() -> spec("--search-space", "concurrency:1,8")).hasMessageContaining("at least one SLO");
    }
}
