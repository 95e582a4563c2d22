package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Help reaches every command: {@code aiperf help CMD}, a bare {@code aiperf}, and {@code aiperf help}. */
class HelpEndToEndTest {
    private static final List<String> COMMANDS = List.of("profile", "config", "mock-server", "gate", "aggregate",
            "report", "plot", "analyze-trace", "compare");

    @Test
    void helpNamesEveryCommandAndPrintsItsUsage() {
        for (final String command : COMMANDS) {
            final Runs.Result r = Runs.aiperf("help", command);
            assertThat(r.exitCode()).as(command + ": " + r.err()).isZero();
            assertThat(r.out()).as(command).contains("Usage: aiperf " + command);
        }
        assertThat(Runs.aiperf("help", "config").out()).contains("validate").contains("expand");
    }

    @Test
    void aBareAiperfAndAiperfHelpListTheCommandsOneLineEach() {
        for (final Runs.Result r : List.of(Runs.aiperf(), Runs.aiperf("help"))) {
            assertThat(r.exitCode()).isZero();
            final List<String> lines = r.out().lines().toList();
            final int start = lines.indexOf("Commands:");
            assertThat(start).as(r.out()).isPositive();
            final List<String> listed = lines.subList(start + 1, lines.size()).stream()
                    .filter(l -> l.startsWith("  ") && !l.isBlank()).toList();
            assertThat(listed).hasSize(COMMANDS.size() + 1); // and help
            for (int i = 0; i < COMMANDS.size(); i++) {
                assertThat(listed.get(i).trim()).startsWith(COMMANDS.get(i) + " ");
            }
        }
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        final Runs.Result r = Runs.aiperf("help", "no-such-command");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no-such-command");
    }
}
