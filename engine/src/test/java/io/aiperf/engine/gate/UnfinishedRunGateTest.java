package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run still writing, or killed before it finished, is never judged, and a gate never leaves an old verdict. */
class UnfinishedRunGateTest {
    @TempDir
    Path tmp;

    private Path rules() throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p99, max: 1000}\n");
        return rules;
    }

    private static void summary(final Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("profile_export_aiperf.json"), "{\"schema_version\": \"1.5\", "
                + "\"time_to_first_token\": {\"unit\": \"ms\", \"p99\": 20, \"avg\": 10}, "
                + "\"request_count\": {\"unit\": \"requests\", \"avg\": 10}}");
    }

    private GateResult gate(final Path candidate, final Path out) throws Exception {
        return GateRunner.run(rules(), List.of(), candidate, out,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @Test
    void aSweepKilledMidwayIsRefusedAndTheOldVerdictIsGone() throws Exception {
        final Path run = tmp.resolve("run");
        summary(run.resolve("concurrency_1"));
        final Path out = tmp.resolve("out");
        assertThat(gate(run, out).exitCode()).isZero(); // finished: judged
        assertThat(out.resolve(GateReports.JSON_FILE)).exists();
        // The next run into it was killed after its first cell: its lock file stayed.
        Files.writeString(run.resolve(RunDirectory.LOCK_FILE), "");
        assertThatThrownBy(() -> gate(run, out)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("without finishing").hasMessageContaining("never judged");
        assertThat(out.resolve(GateReports.JSON_FILE)).as("no old PASS left behind").doesNotExist();
        assertThatThrownBy(() -> gate(run.resolve("concurrency_1"), out)).as("nor one of its cells")
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void aRunStillWritingInAnotherProcessIsRefused() throws Exception {
        final Path run = tmp.resolve("live");
        summary(run);
        // Another process holds the lock, as a live run does.
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
                run.resolve(RunDirectory.LOCK_FILE), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE)) {
            final Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
                    run.resolve(RunDirectory.LOCK_FILE).toString()).redirectErrorStream(true).start();
            try {
                assertThat(new String(holder.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("held");
                assertThatThrownBy(() -> gate(run, tmp.resolve("out"))).isInstanceOf(ConfigException.class)
                        .hasMessageContaining("still running");
            } finally {
                holder.destroy();
                holder.waitFor();
            }
        }
        Files.delete(run.resolve(RunDirectory.LOCK_FILE)); // as the run does when it ends
        assertThat(gate(run, tmp.resolve("out")).exitCode()).as("once it has finished").isZero();
    }

    /** Holds a lock file until killed, as a live run's process does; says "held" once it does. */
    public static final class LockHolder {
        public static void main(final String[] args) throws Exception {
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(Path.of(args[0]),
                    java.nio.file.StandardOpenOption.WRITE); java.nio.channels.FileLock lock = channel.lock()) {
                System.out.print("held");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE); // until the test kills it
            }
        }
    }

    @Test
    void aRunOfThisProcessMayReadTheCellsItFinished() throws Exception {
        final Path run = tmp.resolve("own");
        try (RunDirectory own = RunDirectory.claim(run, null)) {
            summary(run.resolve("a"));
            assertThat(gate(run.resolve("a"), tmp.resolve("out")).exitCode()).isZero();
        }
    }
}
