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
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user reads never shows a Java record's own text ({@code HookCall[hook=...]}, {@code MockServerConfig[...]}):
 * the output of profile (with control hooks and failures, at DEBUG), mock-server, gate and config, and the run's log
 * files, hold no {@code Name[field=}. Integers read as integers: the sweep table's error count, {@code config expand}'s
 * byte limits.
 */
class NoRecordTextEndToEndTest {
    private static final Pattern RECORD_TEXT = Pattern.compile("[a-zA-Z]+\\[[a-z]+=");

    @TempDir
    Path tmp;

    private final List<String> read = new ArrayList<>();

    private void noRecordText(final String what, final String text) {
        read.add(what);
        assertThat(RECORD_TEXT.matcher(text).find()).as(what + " shows a record's text:\n" + text).isFalse();
    }

    private void noRecordTextInLogs(final Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path log : files.filter(p -> p.toString().endsWith(".log")).toList()) {
                noRecordText(dir.relativize(log).toString(), Files.readString(log));
            }
        }
    }

    @Test
    void profileGateAndConfigSayThingsInWords() throws Exception {
        final Path base = tmp.resolve("base");
        final Path cand = tmp.resolve("cand");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1).withErrorRate(20))) {
            for (final Path dir : List.of(base, cand)) {
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "-v",
                        "--concurrency", "1,2", "--request-count", "20", "--isl", "16", "--osl", "4",
                        "--reset-kv-cache", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(r.err()).isZero();
                noRecordText("profile", r.all());
                assertThat(r.out()).as("the error count of a point is an integer").doesNotContainPattern(
                        "(?m)^[ *] concurrency_\\d+ .* \\d+\\.\\d\\d\\s*$").containsPattern("(?m)^[ *] concurrency_2 .* \\d+\\s*$");
                noRecordTextInLogs(dir);
            }
        }
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10000}\n"
                + "  - {metric: request_latency, stat: p99, max: 100000}\n");
        final Runs.Result gate = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", base.toString(),
                "--candidate", cand.toString(), "--output-dir", tmp.resolve("gate").toString());
        noRecordText("gate", gate.all());
        assertThat(gate.out()).doesNotContain("] concurrency_1: passed:").contains("<= 100000 ms");

        final Path config = tmp.resolve("bench.yaml");
        Files.writeString(config, "models: [m]\nendpoint:\n  url: http://127.0.0.1:1\n");
        for (final String[] args : List.of(new String[] {"config", "validate", config.toString()},
                new String[] {"config", "expand", config.toString()},
                new String[] {"config", "expand", "--format", "json", config.toString()})) {
            final Runs.Result r = Runs.aiperf(args);
            assertThat(r.exitCode()).as(r.err()).isZero();
            noRecordText(String.join(" ", args), r.all());
            assertThat(r.out()).as("whole numbers print whole").doesNotContainPattern("[0-9]E[0-9]")
                    .doesNotContainPattern("(?m):\\s*-?[0-9]+\\.0,?\\s*$");
        }
        assertThat(read).hasSizeGreaterThan(6);
    }

    @Test
    void theMockServerStartLineNamesItsSettingsInWords() throws Exception {
        final Path log = tmp.resolve("mock.out");
        final Process p = Runs.engineProcess(List.of("mock-server", "--port", "0", "--api-key", "s3cret",
                "--fault", "/v1/chat/completions=status:503:2"), log).start();
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !Files.readString(log, StandardCharsets.UTF_8).contains("listening")) {
                Thread.sleep(50);
            }
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        final String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(out).contains("listening on").contains("API key required")
                .contains("/v1/chat/completions=status:503:2").doesNotContain("s3cret");
        noRecordText("mock-server", out);
    }
}
