package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: one clear error naming the field, exit 2, no artifact directory, no traffic. */
class ConfigErrorEndToEndTest {
    static MockServer mock;
    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        mock = MockServer.start(MockServerConfig.fast());
    }

    @AfterAll
    static void stop() {
        mock.close();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("malformed YAML", "benchmark:\n  model: [a, b\n", List.of(), "malformed YAML"),
                Arguments.of("unknown key", "benchmark:\n  model: m\n  endpoint:\n    strem: true\n", List.of(),
                        "benchmark.endpoint.strem: Extra inputs are not permitted (did you mean 'streaming'?)"),
                Arguments.of("bad URL", null, List.of("--url", "ftp://host:1"), "--url (benchmark.endpoint.urls): invalid URL"),
                Arguments.of("port out of range", null, List.of("--url", "http://127.0.0.1:80000"),
                        "port 80000 is out of range"),
                Arguments.of("max error rate", null, List.of("--max-error-rate", "-1"), "max_error_rate"),
                Arguments.of("event bound", null, List.of("--max-event-bytes", "10"), "max_event_bytes"),
                Arguments.of("head bound", null, List.of("--max-response-head-bytes", "10"), "max_head_bytes"),
                Arguments.of("reuse strategy", null, List.of("--connection-reuse-strategy", "sometimes"),
                        "--connection-reuse-strategy (benchmark.endpoint.connection_reuse): expected pooled, never or "
                                + "sticky-user-sessions; got 'sometimes'"),
                Arguments.of("concurrency 0", null, List.of("--concurrency", "0"),
                        "--concurrency (benchmark.phases.profiling.concurrency): Input should be greater than or equal to 1"),
                Arguments.of("warmup count 0", null, List.of("--warmup-request-count", "0"),
                        "--warmup-request-count (benchmark.phases.warmup.requests): Input should be greater than 0"),
                Arguments.of("hook absolute path", null, List.of("--reset-kv-cache-path", "http://evil/x"),
                        "must be a relative path starting with '/'"),
                Arguments.of("hook timeout 0", "benchmark:\n  model: m\n  endpoint:\n    reset_kv_cache:\n      timeout_seconds: 0\n",
                        List.of(), "benchmark.endpoint.reset_kv_cache.timeout_seconds: Input should be greater than 0"),
                Arguments.of("hook retry -1", "benchmark:\n  model: m\n  endpoint:\n    reset_kv_cache:\n      max_retry_seconds: -1\n",
                        List.of(), "benchmark.endpoint.reset_kv_cache.max_retry_seconds: Input should be greater than or equal to 0"),
                Arguments.of("search unknown key", "benchmark:\n  model: m\nsearch:\n  spaec: concurrency:1,4\n",
                        List.of(), "search.spaec: unknown key (did you mean 'space'?)"),
                Arguments.of("hook unknown key", "benchmark:\n  model: m\n  endpoint:\n    reset_kv_cache:\n      paht: /x\n",
                        List.of(), "benchmark.endpoint.reset_kv_cache.paht: Extra inputs are not permitted (did you mean 'path'?)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rejectsBeforeAnyTraffic(final String name, final String yaml, final List<String> flags, final String message)
            throws Exception {
        final long before = mock.controlState().inferenceRequests() + mock.controlState().resetCount();
        final Path dir = tmp.resolve("out");
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "--artifact-dir", dir.toString(),
                "--request-count", "3", "--reset-kv-cache"));
        if (!flags.contains("--url")) {
            args.addAll(List.of("--url", mock.url()));
        }
        if (yaml != null) {
            final Path f = tmp.resolve("c.yaml");
            Files.writeString(f, yaml);
            args.addAll(List.of("-f", f.toString()));
        }
        args.addAll(flags);
        final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.err().lines().filter(l -> l.startsWith("error:")).count()).isEqualTo(1);
        assertThat(dir).doesNotExist();
        assertThat(mock.controlState().inferenceRequests() + mock.controlState().resetCount()).isEqualTo(before);
    }

    /** The cases with a file: {@code config validate} reads files only. */
    static Stream<Arguments> yamlCases() {
        return cases().filter(a -> a.get()[1] != null);
    }

    @ParameterizedTest(name = "config validate: {0}")
    @MethodSource("yamlCases")
    void configValidateReportsTheSameYamlErrors(final String name, final String yaml, final List<String> flags,
                                                final String message) throws Exception {
        final Path f = tmp.resolve("v.yaml");
        Files.writeString(f, yaml);
        final Runs.Result r = Runs.aiperf("config", "validate", "-f", f.toString());
        assertThat(r.exitCode()).isEqualTo(1); // upstream's documented exit code for config validate
        assertThat(r.err()).contains(message);
    }

    @org.junit.jupiter.api.Test
    void configValidateTakesTheFileAsItsArgumentAsUpstreamDoes() throws Exception {
        final Path f = Files.writeString(tmp.resolve("ok.yaml"), "benchmark:\n  model: m\n  phases: {requests: 2}\n");
        final Runs.Result r = Runs.aiperf("config", "validate", f.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("valid (1 cell");
        final Runs.Result twice = Runs.aiperf("config", "validate", "-f", f.toString(), f.toString());
        assertThat(twice.exitCode()).isEqualTo(2);
        assertThat(twice.err()).contains("Give the config file once");
        assertThat(Runs.aiperf("config", "validate").exitCode()).isEqualTo(2);
    }

    @org.junit.jupiter.api.Test
    void unknownFlagsAndMalformedValuesAreUsageErrors() {
        assertThat(Runs.aiperf("profile", "-m", "m", "--bogus").exitCode()).isEqualTo(2);
        final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "--concurrency", "8,x");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--concurrency: Input should be a valid integer, got 'x'");
    }

    /** The mock caps every reply, so asking it for more is refused before it starts, not a run of hours. */
    @org.junit.jupiter.api.Test
    void aMockRunAskingForMoreThanTheMocksLongestReplyIsRefused() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "-m", "m", "--osl", "2000000000", "--request-count",
                "1");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--osl").contains("above the --mock server's longest reply of 16384 tokens");
    }

    /** A huge scalar is refused by a scan of the text, before the YAML parser spends minutes and gigabytes on it. */
    @org.junit.jupiter.api.Test
    void aTenMegabyteStringInAConfigIsRefusedBeforeParsing(@org.junit.jupiter.api.io.TempDir final Path dir)
            throws Exception {
        final String huge = "x".repeat(10_000_000);
        final Path big = dir.resolve("big.yaml");
        Files.writeString(big, "benchmark:\n  model: m\n  endpoint: {url: \"localhost:9\", type: " + huge + "}\n");
        final Runs.Result file = Runs.aiperf("config", "validate", "-f", big.toString());
        assertThat(file.exitCode()).isEqualTo(1);
        assertThat(file.err()).contains("a config file may have at most 1048576").hasSizeLessThan(1000);
        final Path line = dir.resolve("line.yaml");
        Files.writeString(line, "benchmark:\n  model: " + "y".repeat(100_000) + "\n");
        final Runs.Result longLine = Runs.aiperf("config", "validate", "-f", line.toString());
        assertThat(longLine.exitCode()).isEqualTo(1);
        assertThat(longLine.err()).contains("line 2 is 100009 characters long").hasSizeLessThan(1000);
    }

    /** An extra body field may not silently undo --streaming: what the run measures must be what was asked. */
    @org.junit.jupiter.api.Test
    void streamFalseInExtraInputsContradictingStreamingIsRefused() {
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--streaming",
                "--extra-inputs", "stream:false");
        assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
        assertThat(r.err()).contains("'stream: false' contradicts --streaming");
    }
}
