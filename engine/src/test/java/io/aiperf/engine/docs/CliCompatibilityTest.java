package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Scripts written for upstream AIPerf run unchanged: every name of upstream's {@code aiperf profile} option list
 * (checked in, with its source version) is accepted here, or listed with a reason under "Deliberate differences"
 * in src-docs/cli.md. An unknown option still fails with a did-you-mean.
 */
class CliCompatibilityTest {
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

    @Test
    void everyUpstreamProfileOptionIsAcceptedOrADocumentedDifference() throws IOException {
        final CommandLine profile = Main.commandLine().getSubcommands().get("profile");
        final List<String> names = upstreamNames();
        assertThat(names).hasSizeGreaterThan(250).contains("--no-server-metrics", "-vv", "--export-level");
        final List<String> rows = differenceRows();
        final List<String> missing = new ArrayList<>();
        for (final String name : names) {
            final boolean accepted = profile.getCommandSpec().findOption(name) != null
                    || name.equals("-vv") && profile.getCommandSpec().findOption("-v") != null;
            final String row = rows.stream().filter(r -> r.contains("`" + name + "`")).findFirst().orElse(null);
            if (accepted && row != null) {
                missing.add(name + " (accepted, yet listed as a difference)");
            } else if (!accepted && row == null) {
                missing.add(name);
            } else if (row != null && row.substring(row.lastIndexOf('|', row.length() - 2)).trim().length() < 12) {
                missing.add(name + " (listed without a reason)");
            }
        }
        assertThat(missing).as("upstream options neither accepted nor listed under deliberate differences").isEmpty();
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithADidYouMean() {
        final java.io.StringWriter err = new java.io.StringWriter();
        final CommandLine cl = Main.commandLine();
        cl.setErr(new java.io.PrintWriter(err));
        final int code = cl.execute("profile", "-m", "m", "--request-cout", "5");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--request-cout").contains("--request-count");
    }
}
