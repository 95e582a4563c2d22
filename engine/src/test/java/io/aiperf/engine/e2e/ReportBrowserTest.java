package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html opened in headless Chromium under the Content-Security-Policy Jenkins serves archived files with: no
 * console message (a blocked style or script would log one), one Pareto point per sweep value, and a screenshot in
 * target/. Skipped, with the reason printed, where Chromium is not installed (.ci/run installs it).
 */
class ReportBrowserTest {
    private static final String JENKINS_CSP = "default-src 'none'; img-src 'self'; style-src 'self';";

    @TempDir
    Path tmp;

    private static Path chromium() {
        for (final String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    private String browse(final Path browser, final Path page, final String... extra) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=" + tmp.resolve("profile-" + System.nanoTime())));
        cmd.addAll(List.of(extra));
        cmd.add(page.toUri().toString());
        final Path out = tmp.resolve("browser-" + System.nanoTime() + ".out");
        final Path err = tmp.resolve("browser-" + System.nanoTime() + ".err");
        final Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium ended").isTrue();
        final String log = Files.readString(err);
        final List<String> console = log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Refused to"))
                .toList();
        assertThat(console).as("console messages of " + page.getFileName()).isEmpty();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static Path browserOrSkip() {
        final Path browser = chromium();
        if (browser == null) {
            System.out.println("ReportBrowserTest skipped: no Chromium at /usr/bin/chromium (install Debian's "
                    + "chromium; .ci/run does)");
        }
        Assumptions.assumeTrue(browser != null, "Chromium is not installed");
        return browser;
    }

    private Path underCsp(final Path report) throws Exception {
        final Path page = tmp.resolve("csp-" + report.getParent().getFileName() + ".html");
        Files.writeString(page, Files.readString(report).replace("<head>", "<head>\n<meta http-equiv=\""
                + "Content-Security-Policy\" content=\"" + JENKINS_CSP + "\">"));
        return page;
    }

    /** The rendered page's SVG charts, by id. */
    private static java.util.Map<String, String> charts(final String dom) {
        final java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("<svg ([^>]*)>").matcher(dom);
        while (m.find()) {
            final java.util.regex.Matcher id = java.util.regex.Pattern.compile("id=\"([^\"]+)\"").matcher(m.group(1));
            if (id.find()) {
                out.put(id.group(1), dom.substring(m.start(), dom.indexOf("</svg>", m.start())));
            }
        }
        return out;
    }

    @Test
    void aGatedRunLeadsWithTheVerdictAndDrawsBothRunsInEveryComparisonChart() throws Exception {
        final Path browser = browserOrSkip();
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n");
        final Path base = tmp.resolve("base");
        final Path cand = tmp.resolve("cand");
        for (final Object[] side : new Object[][] {{base, 20}, {cand, 40}}) {
            try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency((int) side[1], 1))) {
                final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(),
                        "--streaming", "--request-rate", "200", "--request-count", "600", "--isl", "16", "--osl", "4",
                        "--tokenizer", "builtin", "--artifact-dir", side[0].toString()));
                if (side[0] == cand) {
                    args.addAll(List.of("--gate", rules.toString(), "--baseline", base.toString()));
                }
                final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
                // The 2x TTFT fails the gate; a busy client that cannot keep the rate makes it inconclusive.
                assertThat(r.exitCode()).as(r.err()).isIn(side[0] == cand ? List.of(1, 4) : List.of(0));
            }
        }
        final String dom = browse(browser, underCsp(cand.resolve("report.html")), "--dump-dom");
        // The decision first: the page's first section is the verdict, with the rule's p value.
        final String verdict = Runs.json(cand.resolve("gate_result.json")).path("verdict").asText()
                .toUpperCase(java.util.Locale.ROOT);
        assertThat(dom.indexOf("<h2")).isEqualTo(dom.indexOf("<h2 id=\"verdict\">Verdict: " + verdict + "</h2>"));
        final double p = Runs.json(cand.resolve("gate_result.json")).path("rules").get(0).path("p_value").asDouble();
        assertThat(dom).contains(String.format(java.util.Locale.ROOT, ">%.3g<", p));
        final java.util.Map<String, String> charts = charts(dom);
        final List<String> comparisons = charts.keySet().stream().filter(id -> id.startsWith("gate-metric-")
                || id.startsWith("pareto-") || id.startsWith("ci-") || id.startsWith("cdf-")).toList();
        assertThat(comparisons).contains("gate-metric-0", "pareto-time_to_first_token", "cdf-ttft", "cdf-itl",
                "cdf-latency");
        for (final String id : comparisons) {
            assertThat(charts.get(id)).as(id).contains("data-series=\"baseline\"").contains("data-series=\"candidate\"");
        }
        // No cell twice: one row per run and cell.
        final String cells = dom.substring(dom.indexOf("<h2 id=\"cells\">"), dom.indexOf("<h2 id=\"timelines\">"));
        final java.util.regex.Matcher row = java.util.regex.Pattern.compile("<tr><td>([^<]+)</td><td>([^<]+)</td>")
                .matcher(cells);
        final List<String> rows = new ArrayList<>();
        while (row.find()) {
            rows.add(row.group(1) + " " + row.group(2));
        }
        assertThat(rows).containsExactly("baseline base", "candidate base");
        // Real time: a 200 req/s cell's timeline never shows more than twice that, and its axis starts at 0.
        final List<String> timelines = charts.keySet().stream().filter(id -> id.startsWith("timeline-")).toList();
        assertThat(timelines).hasSize(2);
        for (final String id : timelines) {
            final java.util.regex.Matcher peak = java.util.regex.Pattern.compile("data-peak-rate=\"([0-9.]+)\"")
                    .matcher(charts.get(id));
            assertThat(peak.find()).as(id).isTrue();
            assertThat(Double.parseDouble(peak.group(1))).as(id + " peak requests/s").isBetween(100.0, 400.0);
            assertThat(charts.get(id)).contains("class=\"x-tick\" x=\"64.0\"").contains(">0</text>");
        }
    }

    @Test
    void theReportRendersUnderJenkinsCspWithOneParetoPointPerSweepValue() throws Exception {
        final Path browser = browserOrSkip();
        final Path dir = tmp.resolve("sweep");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(3, 1))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency",
                    "1,4", "--num-profile-runs", "2", "--request-count", "12", "--isl", "16", "--osl", "6",
                    "--reset-kv-cache", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        final Path report = dir.resolve("report.html");
        final String html = Files.readString(report);
        assertThat(html).doesNotContain("<script").doesNotContain("<style").doesNotContain("style=")
                .doesNotContain(" src=").doesNotContain(" href=").contains("reset_kv_cache"); // nothing to fetch
        final Path underCsp = tmp.resolve("report-csp.html");
        Files.writeString(underCsp, html.replace("<head>", "<head>\n<meta http-equiv=\"Content-Security-Policy\" "
                + "content=\"" + JENKINS_CSP + "\">"));
        final String dom = browse(browser, underCsp, "--dump-dom");
        final int start = dom.indexOf("<svg id=\"pareto-time_to_first_token\"");
        assertThat(start).as("the TTFT Pareto chart").isNotNegative();
        final String chart = dom.substring(start, dom.indexOf("</svg>", start));
        assertThat(chart.split("class=\"pareto-point\"", -1).length - 1).isEqualTo(2);
        assertThat(dom.split("class=\"ci-bar\"", -1).length - 1).isEqualTo(3 * 2); // 3 metrics x 2 sweep values
        // TTFT, ITL and latency: one line per sweep point, its trials' requests together
        assertThat(dom.split("class=\"cdf-line\"", -1).length - 1).isEqualTo(3 * 2);
        final Path screenshot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.createDirectories(screenshot.getParent());
        Files.deleteIfExists(screenshot);
        browse(browser, underCsp, "--window-size=1280,2600", "--screenshot=" + screenshot);
        assertThat(screenshot).exists();
        assertThat(Files.size(screenshot)).isGreaterThan(10_000);
    }
}
