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

    @Test
    void theReportRendersUnderJenkinsCspWithOneParetoPointPerSweepValue() throws Exception {
        final Path browser = chromium();
        if (browser == null) {
            System.out.println("ReportBrowserTest skipped: no Chromium at /usr/bin/chromium (install Debian's "
                    + "chromium; .ci/run does)");
        }
        Assumptions.assumeTrue(browser != null, "Chromium is not installed");
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
        assertThat(dom.split("class=\"cdf-line\"", -1).length - 1).isEqualTo(4); // one per cell
        final Path screenshot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.createDirectories(screenshot.getParent());
        Files.deleteIfExists(screenshot);
        browse(browser, underCsp, "--window-size=1280,2600", "--screenshot=" + screenshot);
        assertThat(screenshot).exists();
        assertThat(Files.size(screenshot)).isGreaterThan(10_000);
    }
}
