package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aiperf compare} against two mocks, one 20% slower: interleaved cells, a reset before each, B fails the gate. */
class CompareEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void interleavesCellsResetsBeforeEachAndGatesTheSlowerSide() throws Exception {
        try (MockServer a = MockServer.start(MockServerConfig.fast().withLatency(25, 1));
             MockServer b = MockServer.start(MockServerConfig.fast().withLatency(30, 1))) {
            final Path rules = tmp.resolve("rules.yaml");
            Files.writeString(rules, "require_same: [model, config_hash]\nrules:\n"
                    + "  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n");
            final Path dir = tmp.resolve("ab");
            final Runs.Result r = Runs.aiperf("compare", "--a", a.url(), "--b", b.url(), "--pairs", "3", "-m", "m",
                    "--streaming", "--concurrency", "2", "--request-count", "12", "--isl", "8", "--osl", "4",
                    "--gate", rules.toString(), "--artifact-dir", dir.toString());
            // 25 against 30 ms is +20%; a client whose timers woke tens of ms late cannot tell them apart, and says so.
            if (!Runs.clientStarved(dir)) {
                assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
                assertThat(r.out()).contains("Gate: FAILED").contains("time_to_first_token");
            }
            // 12 requests a cell: each side says so once for its three cells, not once per cell.
            assertThat(r.out()).contains("Validity warn (sample_size) in 3 of 3 cells: 12 valid requests")
                    .contains("(cell A trial_0001)").contains("(cell B trial_0001)");
            assertThat(r.out().lines().filter(l -> l.contains("(sample_size)")).count()).isEqualTo(2);

            // A reset before every cell, on each server: three cells each.
            assertThat(a.controlState().resetCount()).isEqualTo(3);
            assertThat(b.controlState().resetCount()).isEqualTo(3);
            // The cells ran A B, B A, A B: each server's reset and inference events alternate with the other's,
            // which the cells' own start times show in one order.
            final List<String> order = new ArrayList<>();
            final List<Object[]> cells = new ArrayList<>();
            for (final String side : List.of("a", "b")) {
                for (int t = 1; t <= 3; t++) {
                    final JsonNode s = Runs.json(dir.resolve(side).resolve("trial_000" + t).resolve("profile_export_aiperf.json"));
                    cells.add(new Object[] {Instant.parse(s.path("start_time").asText()), side + t});
                }
            }
            cells.sort(Comparator.comparing(c -> (Instant) c[0]));
            cells.forEach(c -> order.add((String) c[1]));
            assertThat(order).containsExactly("a1", "b1", "b2", "a2", "a3", "b3");
            assertThat(a.controlState().events()).startsWith("reset").contains("inference");
            assertThat(Runs.json(dir.resolve("gate_result.json")).path("rules").get(0).path("candidate_trials").asInt())
                    .isEqualTo(3);
            assertThat(dir.resolve("a/aggregate")).isDirectory();
            assertThat(dir.resolve("b/aggregate")).isDirectory();

            // One report, A against B side by side, and none per side.
            assertThat(dir.resolve("a/report.html")).doesNotExist();
            assertThat(dir.resolve("b/report.html")).doesNotExist();
            final String html = Files.readString(dir.resolve("report.html"));
            // drawn from the runs in memory, it is the page their files give (aiperf report would draw)
            assertThat(undated(html)).isEqualTo(undated(io.aiperf.engine.report.HtmlReport.comparison("A",
                    List.of(dir.resolve("a")), "B", dir.resolve("b"), dir.resolve("gate_result.json"),
                    io.aiperf.engine.export.ExportNames.of(null))));
            final String verdict = "Verdict: " + Runs.json(dir.resolve("gate_result.json")).path("verdict").asText()
                    .toUpperCase(java.util.Locale.ROOT); // FAILED, unless a starved client made it inconclusive
            assertThat(html).contains("<b>A</b>: 3 cell(s) in 1 sweep point(s) against <b>B</b>: 3 cell(s)");
            assertThat(html.indexOf("<h2 id=\"verdict\">" + verdict + "</h2>")).isNotNegative()
                    .isLessThan(html.indexOf("<h2 id=\"throughput-latency\">"));
            final String trials = html.substring(html.indexOf("<h2 id=\"across-trials\">"),
                    html.indexOf("<h2 id=\"distributions\">"));
            assertThat(trials).contains("data-series=\"A\"").contains("data-series=\"B\"")
                    .contains("<b>A</b></font></td><td>base</td><td align=\"right\">3</td>")
                    .contains("<b>B</b></font></td><td>base</td><td align=\"right\">3</td>");
            assertThat(Files.readString(dir.resolve("comparison.svg"))).contains("data-series=\"A\"",
                    "data-series=\"B\"", verdict);

            // aiperf report A B: the same two runs compared, each named by its directory, never pooled.
            final Path both = tmp.resolve("a-vs-b.html");
            assertThat(Runs.aiperf("report", dir.resolve("a").toString(), dir.resolve("b").toString(), "-o",
                    both.toString()).exitCode()).isZero();
            final String report = Files.readString(both);
            assertThat(report).contains("<b>a</b>: 3 cell(s) in 1 sweep point(s) against <b>b</b>: 3 cell(s)");
            final String cellRows = report.substring(report.indexOf("<h2 id=\"cells\">"),
                    report.indexOf("<h2 id=\"timelines\">"));
            assertThat(cellRows.split("<tr><td>a</td>", -1).length - 1).isEqualTo(3);
            assertThat(cellRows.split("<tr><td>b</td>", -1).length - 1).isEqualTo(3);
            assertThat(report.substring(report.indexOf("<svg id=\"pareto-time_to_first_token\""),
                    report.indexOf("<svg id=\"pareto-inter_token_latency\""))).contains("data-series=\"a\"",
                    "data-series=\"b\"");
        }
    }

    @Test
    void compareRefusesAUrlFlagAndASweep() {
        assertThat(Runs.aiperf("compare", "--a", "http://127.0.0.1:9", "--b", "http://127.0.0.1:9", "-u",
                "http://127.0.0.1:9", "-m", "m").exitCode()).isEqualTo(2);
        final Runs.Result sweep = Runs.aiperf("compare", "--a", "http://127.0.0.1:9", "--b", "http://127.0.0.1:9",
                "-m", "m", "--concurrency", "1,2");
        assertThat(sweep.exitCode()).isEqualTo(2);
        assertThat(sweep.err()).contains("compare runs one load point");
    }

    private static String undated(final String page) {
        return page.replaceAll("; generated [^<]*</p>", "</p>");
    }
}
