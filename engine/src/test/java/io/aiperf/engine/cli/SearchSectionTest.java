package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.search.SearchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The search: section config expand writes: read back, it is the same search, with every default written out. */
class SearchSectionTest {
    private static SearchSpec spec(final SearchOptions options) {
        return options.spec(0.9);
    }

    /** The search the section gives when profile reads it from a file. */
    private static SearchSpec readBack(final JsonNode section) {
        final SearchOptions fromFile = new SearchOptions();
        fromFile.defaults(section);
        return spec(fromFile);
    }

    @Test
    void everySearchReadsBackAsItself() {
        final List<String[]> searches = List.of(
                new String[] {"--search-sla", "time_to_first_token:p95:lt:200"},
                new String[] {"--search-space", "phases.profiling.concurrency:2,9:int", "--search-sla",
                    "time_to_first_token:p95:lt:200", "--search-planner", "GRID", "--search-max-iterations", "4",
                    "--search-trials-max", "2", "--search-boundary-band", "5", "--search-max-client-lateness", "30"},
                new String[] {"--search-space", "request_rate:2,10", "--search-sla", "request_latency:p99:lt:900",
                    "--search-metric", " output_token_throughput", "--search-direction", "MAXIMIZE",
                    "--search-percentile-pooling", "pooled", "--search-stat", "P90", "--search-initial-points", "2",
                    "--search-random-seed", "7"},
                new String[] {"--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "150",
                    "--concurrency-max", "16"},
                new String[] {"--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "900",
                    "--error-rate-sla", "0.05", "--search-style", "Grid"},
                new String[] {"--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "100", "--tpot-sla-ms",
                    "10.5"},
                new String[] {"--search-sla-tier", "fast:time_to_first_token:p95:lt:50", "--search-sla-tier",
                    "slow:time_to_first_token:p95:lt:500,request_latency:p99:lt:2000"});
        for (final String[] args : searches) {
            final SearchOptions given = CommandLine.populateCommand(new SearchOptions(), args);
            final SearchSpec search = spec(given);
            final ObjectNode section = SearchSection.of(given, search);
            assertThat(readBack(section)).as("%s: %s", List.of(args), section).isEqualTo(search);
            final SearchOptions again = new SearchOptions();
            again.defaults(section);
            assertThat(SearchSection.of(again, readBack(section))).as("written twice: %s", List.of(args))
                    .isEqualTo(section);
        }
    }

    @Test
    void theDefaultsAreWrittenOutAndTheRangeAsItWasGiven() {
        final ObjectNode plain = SearchSection.of(CommandLine.populateCommand(new SearchOptions(), "--search-sla",
                "time_to_first_token:p95:lt:200"), spec(CommandLine.populateCommand(new SearchOptions(),
                "--search-sla", "time_to_first_token:p95:lt:200")));
        assertThat(plain.toString()).isEqualTo("{\"slas\":[\"time_to_first_token:p95:lt:200\"],"
                + "\"percentile_pooling\":\"mean\",\"concurrency_min\":1,\"concurrency_max\":64,\"max_iterations\":8,"
                + "\"planner\":\"bisection\",\"trials_max\":3,\"boundary_band_pct\":10.0,"
                + "\"max_client_lateness_ms\":20.0}");
        final SearchOptions spaced = CommandLine.populateCommand(new SearchOptions(), "--search-space",
                "phases.profiling.rate:3,7", "--search-sla", "time_to_first_token:p95:lt:200");
        final ObjectNode section = SearchSection.of(spaced, spec(spaced));
        assertThat(section.path("space").asText()).isEqualTo("request_rate:3,7");
        assertThat(section.has("concurrency_min")).as("a range is given once").isFalse();
    }

    @Test
    void aRecipeStaysARecipeWithItsOwnDefaults() {
        final SearchOptions underSla = CommandLine.populateCommand(new SearchOptions(), "--search-recipe",
                "max-concurrency-under-sla", "--ttft-sla-ms", "100");
        final ObjectNode s = SearchSection.of(underSla, spec(underSla));
        assertThat(s.path("style").asText()).isEqualTo("monotonic");
        assertThat(s.has("planner")).as("this recipe refuses --search-planner").isFalse();
        assertThat(s.has("slas")).as("its SLOs are the recipe's, not written beside it").isFalse();
        final SearchOptions goodput = CommandLine.populateCommand(new SearchOptions(), "--search-recipe",
                "max-goodput-under-slo", "--ttft-sla-ms", "100");
        assertThat(SearchSection.of(goodput, spec(goodput)).path("slo_attainment_fraction").asDouble())
                .isEqualTo(0.95);
    }
}
