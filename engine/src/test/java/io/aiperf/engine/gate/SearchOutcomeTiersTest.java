package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchOutcomeTiersTest {
    @TempDir
    Path tmp;

    @Test
    void aSearchsTiersArePartOfWhatItSearched() throws Exception {
        Files.writeString(tmp.resolve(SearchOutcome.FILE_NAME), """
                {"search": {"knob": "concurrency", "min": 1, "max": 8,
                  "slas": [{"metric": "request_error_rate", "stat": "avg", "op": "lt", "threshold": 1}],
                  "sla_tiers": [{"label": "fast", "slas": [{"metric": "time_to_first_token", "stat": "p95",
                    "op": "lt", "threshold": 50}]}]},
                 "status": "converged", "capacity": 4, "capacity_bounds": {"low": 4, "high": 4}}
                """);
        final SearchOutcome o = SearchOutcome.in(tmp);
        assertThat(o.slas()).containsExactly("request_error_rate:avg:lt:1", "fast=time_to_first_token:p95:lt:50");
        assertThat(o.capacity()).isEqualTo(4);
    }
}
