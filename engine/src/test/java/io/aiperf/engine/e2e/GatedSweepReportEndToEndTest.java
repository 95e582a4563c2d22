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
 * {@code profile --gate} on a sweep rewrites the run's report as the comparison: each cell of each side once, with
 * its numbers, whether the exports carry AIPerf's default names or a {@code --profile-export-prefix}
 * (src-docs/report.md).
 */
class GatedSweepReportEndToEndTest {
    private static final Pattern ROW = Pattern.compile("<tr><td>([^<]+)</td><td>([^<]+)</td>");

    @TempDir
    Path tmp;

    @Test
    void aGatedSweepsReportListsEachCellOnce() throws Exception {
        assertEachCellOnceWithItsNumbers(List.of());
    }

    @Test
    void aGatedSweepsReportListsEachCellOnceWithAnExportPrefix() throws Exception {
        assertEachCellOnceWithItsNumbers(List.of("--profile-export-prefix", "bench"));
    }

    private void assertEachCellOnceWithItsNumbers(final List<String> prefix) throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 60000}\n");
        final Path base = tmp.resolve("base");
        final Path cand = tmp.resolve("cand");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            profile(mock, base, prefix);
            final List<String> gated = new ArrayList<>(prefix);
            gated.addAll(List.of("--gate", rules.toString(), "--baseline", base.toString()));
            profile(mock, cand, gated);
        }
        final String page = Files.readString(cand.resolve("report.html"));
        final int start = page.indexOf("<h2 id=\"cells\">");
        assertThat(start).as(page).isNotNegative();
        final String cells = page.substring(start, page.indexOf("</table>", start));
        final List<String> rows = new ArrayList<>();
        final Matcher row = ROW.matcher(cells);
        while (row.find()) {
            rows.add(row.group(1) + " " + row.group(2));
        }
        assertThat(rows).as(cells).containsExactly("baseline concurrency_1", "baseline concurrency_2",
                "candidate concurrency_1", "candidate concurrency_2");
        // Every row carries its cell's numbers (a report that found no summary shows dashes), and the charts drawn
        // from the records are there.
        assertThat(cells).as(cells).doesNotContain("&ndash;</td>");
        assertThat(page).contains("<h2 id=\"timelines\">");
    }

    private static void profile(final MockServer mock, final Path dir, final List<String> extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency",
                "1,2", "--request-count", "8", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString()));
        args.addAll(extra);
        final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.all()).isZero();
    }
}
