package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.Classification;
import io.aiperf.engine.ci.OutcomeClassifier;
import io.aiperf.engine.ci.Verdict;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.OutcomeJsonReader;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.report.HtmlReport;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run of one cell writes the run-level files a run of several writes: run_outcome.json and report.html. */
class SingleCellRunFilesEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void oneCellWritesItsRunOutcomeAndReport() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("one");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--request-count", "6", "--concurrency", "2", "--tokenizer", "builtin", "--artifact-dir",
                    dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode run = Runs.json(dir.resolve("run_outcome.json"));
            assertThat(run.path("status").asText()).isEqualTo("completed");
            assertThat(run.path("exit_code").asInt()).isZero();
            assertThat(run.path("cells").size()).isEqualTo(1);
            final JsonNode cell = run.path("cells").get(0);
            assertThat(cell.path("status").asText()).isEqualTo("completed");
            assertThat(cell.path("exit_code").asInt()).isZero();
            assertThat(cell.path("path").asText()).isEqualTo(".");
            assertThat(cell.path("error").isNull()).isTrue();
            final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
            assertThat(outcome.path("status").asText()).isEqualTo("completed");
            assertThat(outcome.path("exit_code").asInt()).isZero();
            final String page = Files.readString(dir.resolve("report.html"));
            assertThat(page).contains("<td>base</td><td>completed</td><td align=\"right\">6</td>")
                    .contains("<h2 id=\"distributions\"").contains("<h2 id=\"timelines\"");
            assertThat(dir.resolve("comparison.svg")).exists();
            assertThat(r.out()).contains("Report: " + dir.resolve("report.html").toAbsolutePath());
            // the page drawn from the run's outcome and summary in memory is the one its files give
            final CellOutcome o = OutcomeJsonReader.read(dir.resolve("cell_outcome.json"), dir);
            final CellSummary s = SummaryCodec.read(dir.resolve("profile_export_aiperf.json"));
            assertThat(undated(HtmlReport.html(dir, List.of(o), x -> s, null, ExportNames.of(null))))
                    .isEqualTo(undated(HtmlReport.html(List.of(dir), ExportNames.of(null))))
                    .isEqualTo(undated(page));
            // the Jenkins step still finds and judges what it looks for
            final Classification c = OutcomeClassifier.classify(r.exitCode(), dir, false);
            assertThat(c.verdict()).isEqualTo(Verdict.SUCCESS);
            assertThat(ArchivePlanner.plan(dir, List.of(), List.of())).contains("run_outcome.json", "report.html",
                    "cell_outcome.json", "profile_export_aiperf.json");
        }
    }

    @Test
    void oneFailedCellSaysSoInItsRunOutcome() throws Exception {
        final Path dir = tmp.resolve("dead");
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", // nothing listens
                "--request-count", "2", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        final JsonNode run = Runs.json(dir.resolve("run_outcome.json"));
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("exit_code").asInt()).isEqualTo(1);
        assertThat(run.path("cells").get(0).path("error").asText()).startsWith("no valid request");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("<td>base</td><td>failed</td>");
    }

    /** A page without its "generated" time, which is the only part two drawings of one run differ in. */
    private static String undated(final String page) {
        return page.replaceAll("; generated [^<]*</p>", "</p>");
    }
}
