package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import io.aiperf.engine.cli.UpstreamOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Scripts written for upstream AIPerf run unchanged: every name of upstream's {@code aiperf profile} option list
 * (generated from the installed upstream 0.13.0 by bench/upstream/profile-options.py and checked in) is accepted
 * here, or refused in one line that names it and says why (the table in {@link UpstreamOptions}, documented under
 * "Deliberate differences" in src-docs/cli.md); none is unknown. Any other unknown option fails in one line with a
 * did-you-mean.
 */
class CliCompatibilityTest {
    /** Upstream names {@code aiperf profile} accepts, at least, of the 321 in the list (the rest are refused). */
    private static final int ACCEPTED_AT_LEAST = 232;

    private static List<String> upstreamNames() throws IOException {
        try (InputStream in = CliCompatibilityTest.class.getResourceAsStream("/upstream-profile-options.txt")) {
            final List<String> names = new ArrayList<>();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("[")) {
                    continue;
                }
                names.addAll(List.of(line.trim().split("\\s+")));
            }
            return names;
        }
    }

    /** The rows of the "Deliberate differences" table: each names options in backticks and gives a reason. */
    private static List<String> differenceRows() throws IOException {
        final String doc = Files.readString(Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"), "cli.md"));
        final int start = doc.indexOf("\n## Deliberate differences");
        assertThat(start).as("src-docs/cli.md has a Deliberate differences section").isPositive();
        final int end = doc.indexOf("\n## ", start + 5);
        final List<String> rows = new ArrayList<>();
        for (final String line : doc.substring(start, end < 0 ? doc.length() : end).split("\n")) {
            if (line.startsWith("| `-")) {
                rows.add(line);
            }
        }
        return rows;
    }

    private static boolean accepted(final CommandLine profile, final String name) {
        return profile.getCommandSpec().findOption(name) != null
                || name.equals("-vv") && profile.getCommandSpec().findOption("-v") != null;
    }

    @Test
    void everyUpstreamProfileOptionIsAcceptedOrRefusedInOneLineWithItsReason() throws IOException {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        final CommandLine profile = cl.getSubcommands().get("profile");
        final List<String> names = upstreamNames();
        assertThat(names).hasSize(321).doesNotHaveDuplicates()
                .contains("--no-server-metrics", "-vv", "--export-level", "--system-prompt", "--per-chunk-usage");
        final List<String> wrong = new ArrayList<>();
        int refused = 0;
        int acceptedCount = 0;
        for (final String name : names) {
            final String reason = UpstreamOptions.unsupported().get(name);
            if (accepted(profile, name)) {
                if (reason != null) {
                    wrong.add(name + " (accepted, yet in the unsupported table)");
                }
                acceptedCount++;
                continue;
            }
            err.getBuffer().setLength(0);
            final int code = cl.execute("profile", "-m", "m", "--request-count", "1", name, "1");
            final String out = err.toString().strip();
            if (code != 2 || reason == null || out.contains("\n")
                    || !out.equals("error: " + name + " is an upstream AIPerf option that aiperf-java does not support: "
                            + reason)) {
                wrong.add(name + " -> exit " + code + ": " + out);
            }
            refused++;
        }
        assertThat(wrong).as("upstream options neither accepted nor refused in one line with their reason").isEmpty();
        assertThat(refused).as("unknown: 0").isEqualTo(UpstreamOptions.unsupported().size() - 3);
        assertThat(acceptedCount + refused).isEqualTo(names.size());
        // What is accepted works (each has its own end-to-end test); the floor only rises as options are built.
        assertThat(acceptedCount).as("upstream names accepted").isGreaterThanOrEqualTo(ACCEPTED_AT_LEAST);
        // Every refused name is upstream 0.13's, but those said to be in neither (names of upstream's development).
        final List<String> refusedNames = UpstreamOptions.unsupported().entrySet().stream()
                .filter(e -> !e.getValue().startsWith(UpstreamOptions.NOT_IN_UPSTREAM)).map(Map.Entry::getKey).toList();
        assertThat(names).containsAll(refusedNames);
        assertThat(UpstreamOptions.unsupported().keySet()).as("refused names that are not upstream 0.13's")
                .filteredOn(n -> !names.contains(n))
                .containsExactlyInAnyOrder("--session-arrival-rate", "--session-arrival-pattern",
                        "--session-arrival-smoothness");
    }

    @Test
    void upstreamsNewestNamesAreAcceptedOrRefusedWithTheirReasonNotUnknown() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        for (final String name : List.of("--session-arrival-rate", "--session-arrival-pattern",
                "--session-arrival-smoothness", "--random-range-ratio")) {
            err.getBuffer().setLength(0);
            assertThat(cl.execute("profile", "-m", "m", name, "1")).as(name).isEqualTo(2);
            assertThat(err.toString().strip()).as(name).startsWith("error: " + name + " is an upstream AIPerf option")
                    .doesNotContain("\n").doesNotContain("did you mean");
        }
    }

    @Test
    void theUnsupportedTableIsTheDocumentedOne() throws IOException {
        final List<String> rows = differenceRows();
        final List<String> documented = new ArrayList<>();
        for (final String row : rows) {
            final String options = row.substring(1, row.indexOf('|', 1));
            for (final String quoted : options.split(",")) {
                documented.add(quoted.strip().replace("`", ""));
            }
            assertThat(row.substring(row.lastIndexOf('|', row.length() - 2)).trim()).as(row).hasSizeGreaterThan(12);
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(UpstreamOptions.unsupported().keySet());
    }

    @Test
    void theValueFormOfAnUnsupportedOptionIsRefusedToo() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("profile", "-m", "m", "--mlflow-tracking-uri=http://127.0.0.1:5000")).isEqualTo(2);
        assertThat(err.toString().strip()).startsWith("error: --mlflow-tracking-uri is an upstream AIPerf option")
                .doesNotContain("\n").doesNotContain("127.0.0.1");
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithADidYouMean() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        final int code = cl.execute("profile", "-m", "m", "--request-cout", "5");
        assertThat(code).isEqualTo(2);
        final String out = err.toString().strip();
        assertThat(out).doesNotContain("\n").doesNotContain("Usage:").contains("--request-cout")
                .contains("did you mean").contains("--request-count").endsWith("see 'aiperf profile --help'");
    }

    @Test
    void aMisspeltRequiredOptionIsNamedRatherThanReportedMissing() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("gate", "--rule", "r.yaml", "--candidate", "run")).isEqualTo(2);
        assertThat(err.toString().strip()).startsWith("error: Unknown options: '--rule', 'r.yaml'")
                .contains("did you mean '--rules'").doesNotContain("Missing required");
    }

    @Test
    void otherCommandsDoNotClaimUpstreamsProfileOptions() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("report", "--otel-url", "x")).isEqualTo(2);
        assertThat(err.toString().strip()).startsWith("error: Unknown option").doesNotContain("upstream AIPerf")
                .doesNotContain("\n").endsWith("see 'aiperf report --help'");
    }
}
