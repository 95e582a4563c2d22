package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports of real runs, read as text (no browser, no pixels): every chart's ticks are distinct, cumulative
 * distributions stay within 0 to 1, numeric x axes start at zero (src-docs/report.md); a run where half the requests
 * failed opens with an "invalid" banner naming the check, and a gated run with its verdict's colour and the sentence
 * of what changed.
 */
class ReportChartsTest {
    /** The top of a chart's plot area, in px ({@code Chart.TOP}): a CDF point above it would be above 1. */
    private static final double PLOT_TOP = 28;

    @TempDir
    Path tmp;

    @Test
    void chartsOfASweepWithTrialsAndAGatedComparisonHaveDistinctTicksAndCdfsWithinZeroToOne() throws Exception {
        final Path base = tmp.resolve("base");
        final Path cand = tmp.resolve("cand");
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n"
                + "  - {metric: request_latency, stat: p50, max: 100000}\n");
        // A constant ITL is the narrowest axis there is: the case that printed "4.99 5 5 5 5".
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 5))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency",
                    "1,4", "--num-profile-runs", "2", "--request-count", "16", "--isl", "16", "--osl", "6",
                    "--tokenizer", "builtin", "--artifact-dir", base.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(40, 5))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency",
                    "1,4", "--num-profile-runs", "2", "--request-count", "16", "--isl", "16", "--osl", "6",
                    "--tokenizer", "builtin", "--artifact-dir", cand.toString(), "--gate", rules.toString(),
                    "--baseline", base.toString());
            assertThat(r.exitCode()).as(r.err()).isIn(1, 4); // the doubled TTFT fails, or a busy client cannot tell
        }
        final List<Path> pages = List.of(base.resolve("report.html"), cand.resolve("report.html"),
                cand.resolve("comparison.svg"));
        int charts = 0;
        for (final Path page : pages) {
            charts += checkCharts(page);
        }
        assertThat(charts).as("charts read").isGreaterThan(20);

        final String gated = Files.readString(cand.resolve("report.html"));
        final String verdict = Runs.json(cand.resolve("gate_result.json")).path("verdict").asText();
        assertThat(gated).contains("class=\"banner verdict-" + verdict + "\"");
        final Matcher change = Pattern.compile("<p class=\"verdict-change\">([^<]+)</p>").matcher(gated);
        assertThat(change.find()).isTrue();
        assertThat(change.group(1)).matches("TTFT p50 (rose|fell|did not change).* in cell concurrency_[14].*\\.");
        assertThat(gated).as("each streamed cell's requests over time").contains("<svg id=\"ttft-time-0-",
                "<svg id=\"ttft-time-1-", "<svg id=\"itl-time-1-").contains("class=\"ttft-dot\"");
        assertThat(gated).as("an absolute limit with its unit").contains("<td>&lt;= 100000 ms</td>")
                .doesNotContainPattern("</b> concurrency_[14]: (passed|failed|inconclusive|unstable): ");
        assertThat(gated.indexOf("id=\"validity\"")).as("the validity banner leads").isLessThan(
                gated.indexOf("id=\"verdict\""));
    }

    @Test
    void aRunWhereHalfTheRequestsFailedOpensWithAnInvalidBannerThatNamesTheCheck() throws Exception {
        final Path dir = tmp.resolve("failing");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1).withErrorRate(50))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "2", "--request-count", "60", "--isl", "16", "--osl", "4", "--tokenizer",
                    "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as("an invalid run keeps exit 0, as upstream").isZero();
            assertThat(r.all()).as("the console names the check").contains("Validity invalid (error_share)");
        }
        final String html = Files.readString(dir.resolve("report.html"));
        final int banner = html.indexOf("<table id=\"validity\" class=\"banner validity-invalid\"");
        assertThat(banner).as("the invalid banner").isPositive();
        assertThat(banner).as("before any section").isLessThan(html.indexOf("<h2"));
        final String text = html.substring(banner, html.indexOf("</table>", banner));
        assertThat(text).contains("<b>Invalid</b>", "<b>error_share</b> invalid", "of the requests failed",
                "What to do:", "fix the errors first");
        checkCharts(dir.resolve("report.html"));
    }

    /** Checks every chart of a page; how many it read. */
    private static int checkCharts(final Path page) throws Exception {
        final String text = Files.readString(page);
        final Matcher svg = Pattern.compile("<svg id=\"([^\"]+)\"").matcher(text);
        int n = 0;
        while (svg.find()) {
            final String id = svg.group(1);
            final String chart = text.substring(svg.start(), text.indexOf("</svg>", svg.start()));
            for (final String axis : List.of("x-tick", "y-tick", "y-tick-right")) {
                assertThat(texts(chart, axis)).as(page.getFileName() + " " + id + " " + axis).doesNotHaveDuplicates();
            }
            final boolean categorical = id.startsWith("gate-metric-") || id.startsWith("ci-");
            if (!categorical && !texts(chart, "x-tick").isEmpty()) {
                assertThat(texts(chart, "x-tick").get(0)).as(id + " x axis from zero").isIn("0", "0.0", "0.00");
            }
            if (id.startsWith("cdf-")) {
                final List<String> y = texts(chart, "y-tick");
                assertThat(Double.parseDouble(y.get(y.size() - 1))).as(id + " top tick").isEqualTo(1.0);
                final Matcher pts = Pattern.compile("points=\"([^\"]*)\"").matcher(chart);
                while (pts.find()) {
                    for (final String pt : pts.group(1).trim().split(" ")) {
                        assertThat(Double.parseDouble(pt.split(",")[1])).as(id + " point above 1")
                                .isGreaterThanOrEqualTo(PLOT_TOP - 0.05);
                    }
                }
            }
            n++;
        }
        return n;
    }

    private static List<String> texts(final String chart, final String cls) {
        final Matcher m = Pattern.compile("class=\"" + cls + "\"[^>]*>([^<]*)<").matcher(chart);
        final List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
