package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --output-format json}: stdout is one JSON document, the summary the exports hold; the text goes to stderr. */
class JsonOutputEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aSingleCellPrintsItsSummaryAndNothingElseOnStdout() throws Exception {
        final Path dir = tmp.resolve("one");
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--output-format", "json", "--concurrency", "2",
                "--request-count", "6", "--osl", "4", "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        final JsonNode printed = Runs.JSON.readTree(r.out());
        assertThat(printed).isEqualTo(Runs.json(dir.resolve("profile_export_aiperf.json")));
        assertThat(printed.path("request_count").path("avg").asInt()).isEqualTo(6);
        assertThat(r.err()).contains("LLM Metrics").contains("Exports: ");
    }

    @Test
    void aSweepPrintsEveryCellAndTheSweepAggregate() throws Exception {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--output-format", "json", "--quiet",
                "--concurrency", "1,2", "--request-count", "4", "--osl", "4",
                "--artifact-dir", tmp.resolve("sweep").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        final JsonNode printed = Runs.JSON.readTree(r.out());
        assertThat(printed.path("cells").path("concurrency_1").path("request_count").path("avg").asInt()).isEqualTo(4);
        assertThat(printed.path("cells").path("concurrency_2").path("request_count").path("avg").asInt()).isEqualTo(4);
        assertThat(printed.path("sweep").path("per_combination_metrics").size()).isEqualTo(2);
    }

    @Test
    void anUnknownFormatIsAUsageErrorBeforeAnyTraffic() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--output-format", "yaml", "--artifact-dir",
                tmp.resolve("bad").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--output-format").contains("text or json");
        assertThat(tmp.resolve("bad")).doesNotExist();
    }
}
