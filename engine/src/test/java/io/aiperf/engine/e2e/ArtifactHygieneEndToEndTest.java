package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results never mix: a killed sweep's cells, a separate gate's reports and an earlier merge are removed. */
class ArtifactHygieneEndToEndTest {
    @TempDir
    Path tmp;

    private static List<Path> cellOutcomes(final Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.getFileName().toString().equals("cell_outcome.json")).toList();
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
            return List.of(); // the live run created or renamed a file during the walk: look again
        }
    }

    @Test
    void aRunAfterKillNineDoesNotKeepTheKilledSweepsCells() throws Exception {
        final Path dir = tmp.resolve("run");
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(5, 5))) {
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", slow.url(), "--streaming",
                    "--concurrency", "1,2", "--request-count", "20", "--isl", "8", "--osl", "50",
                    "--artifact-dir", dir.toString()), tmp.resolve("log.txt")).start();
            try {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (cellOutcomes(dir).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(cellOutcomes(dir)).as("the first cell finished").isNotEmpty();
            } finally {
                p.destroyForcibly(); // SIGKILL: no shutdown hook, no final manifest
                p.waitFor(30, TimeUnit.SECONDS);
            }
            assertThat(p.exitValue()).as("killed during the sweep").isEqualTo(137);
        }
        final List<Path> killed = cellOutcomes(dir);
        try (MockServer fast = MockServer.start(MockServerConfig.fast())) {
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", fast.url(), "--request-count", "4", "--isl", "8",
                    "--osl", "2", "--artifact-dir", dir.toString()).exitCode()).isZero();
        }
        for (final Path stale : killed) {
            assertThat(stale).as("a cell of the killed sweep").doesNotExist();
        }
        assertThat(cellOutcomes(dir)).containsExactly(dir.resolve("cell_outcome.json"));
        try (Stream<Path> walk = Files.walk(dir)) {
            assertThat(walk.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void aSeparateGatesReportsGoWithTheRunTheyJudged() throws Exception {
        final Path dir = tmp.resolve("run");
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 100000}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4", "--isl", "8",
                    "--osl", "2", "--artifact-dir", dir.toString()).exitCode()).isZero();
        }
        assertThat(Runs.aiperf("gate", "--rules", rules.toString(), "--candidate", dir.toString()).exitCode()).isZero();
        assertThat(dir.resolve("gate_junit.xml")).exists();
        final String dead;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            dead = "http://127.0.0.1:" + s.getLocalPort();
        }
        assertThat(Runs.aiperf("profile", "-m", "m", "-u", dead, "--request-count", "2", "--isl", "8", "--osl", "2",
                "--artifact-dir", dir.toString()).exitCode()).isEqualTo(1);
        assertThat(dir.resolve("gate_junit.xml")).as("the passing report of the earlier run").doesNotExist();
        assertThat(dir.resolve("gate_result.json")).doesNotExist();
    }
}
