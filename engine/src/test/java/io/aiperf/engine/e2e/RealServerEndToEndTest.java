package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The checks every real server in the suite passes (src-docs/architecture.md, "Real servers in the suite"): chat,
 * streamed and not, at concurrency 1, 4 and 16 with no request lost, whether or not the server ends its connections
 * after its answers; the KV-cache reset it does not have fails the cell before any load and says what to do; an
 * error event mid-stream is an error record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RealServerEndToEndTest {
    @TempDir
    Path tmp;
    private RealServer tiny;

    /** The server under test, with its normal model; skipped (with the reason) when it is not on this machine. */
    abstract RealServer startServer(Path log) throws Exception;

    /** The same server, with a model or mode whose streams fail midway with an error event. */
    abstract RealServer startBrokenServer(Path log) throws Exception;

    /** The model name its requests carry. */
    abstract String model();

    /** The model name that makes the broken server's streams fail. */
    String brokenModel() {
        return model();
    }

    /** Whether it ends every connection after a streamed answer (then the engine must see it and say so). */
    abstract boolean endsConnectionsAfterStreams();

    @BeforeAll
    void startServer() throws Exception {
        tiny = startServer(Files.createTempFile("real-server", ".log"));
    }

    @AfterAll
    void stopServer() {
        if (tiny != null) {
            tiny.close();
        }
    }

    private Runs.Result profile(final RealServer server, final Path dir, final String... more) {
        return profile(server, model(), dir, more);
    }

    private Runs.Result profile(final RealServer server, final String model, final Path dir, final String... more) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", model, "-u", server.url(),
                "--endpoint-type", "chat", "--tokenizer", "builtin", "--isl", "32", "--osl", "16",
                "--extra-inputs", "ignore_eos:true", "--artifact-dir", dir.toString()));
        args.addAll(List.of(more));
        return Runs.aiperf(args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "streaming {0} at concurrency {1}")
    @CsvSource({"true, 1", "true, 4", "true, 16", "false, 1", "false, 4", "false, 16"})
    void chatLosesNoRequest(final boolean streaming, final int concurrency) throws Exception {
        final Path dir = tmp.resolve("chat-" + streaming + "-" + concurrency);
        final List<String> more = new ArrayList<>(List.of("--concurrency", String.valueOf(concurrency),
                "--request-count", "200"));
        if (streaming) {
            more.add("--streaming");
        }
        final Runs.Result r = profile(tiny, dir, more.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
        final JsonNode transport = s.path("client_health").path("transport");
        assertThat(s.path("error_request_count").path("avg").asLong(0)).as("%s; transport %s",
                s.path("error_summary"), transport).isZero();
        assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(200);
        if (streaming && endsConnectionsAfterStreams()) {
            // It ends every connection after a stream: seen, said, and in the summary.
            assertThat(transport.path("server_closes_after_response").asBoolean()).as("%s", transport).isTrue();
            assertThat(r.err()).containsOnlyOnce("closes kept-alive connections right after its answers");
        }
        assertThat(transport.path("retries").asLong()).as("resends: the ends that marked the server, and at most one "
                + "per request in flight then").isLessThanOrEqualTo(concurrency + 3);
    }

    @Test
    void theKvCacheResetItDoesNotHaveFailsTheCellBeforeAnyLoadAndSaysWhatToDo() throws Exception {
        final Path dir = tmp.resolve("reset");
        final Runs.Result r = profile(tiny, dir, "--streaming", "--concurrency", "2", "--request-count", "10",
                "--reset-kv-cache");
        assertThat(r.exitCode()).as(r.err()).isNotZero();
        assertThat(r.all()).contains("failed with status 404").contains("Per-server paths");
        final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
        assertThat(outcome.path("status").asText()).isEqualTo("failed");
        assertThat(outcome.path("counts").path("requests_sent").asLong()).isZero();
    }

    @Test
    void aModelWhoseAnswersBreakUtf8GivesErrorRecordsFromTheServersErrorEvents() throws Exception {
        try (RealServer broken = startBrokenServer(Files.createTempFile("real-server", ".log"))) {
            final Path dir = tmp.resolve("broken");
            // 64 tokens an answer, not 16: a random model breaks UTF-8 only when it samples a lone byte token, and 40
            // answers of 16 tokens sometimes held none
            final Runs.Result r = Runs.aiperf("profile", "-m", brokenModel(), "-u", broken.url(), "--endpoint-type",
                    "chat", "--tokenizer", "builtin", "--isl", "32", "--osl", "64", "--extra-inputs", "ignore_eos:true",
                    "--artifact-dir", dir.toString(), "--streaming", "--concurrency", "4", "--request-count", "40");
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final long errors = s.path("error_request_count").path("avg").asLong(0);
            final long valid = s.path("request_count").path("avg").asLong(0);
            assertThat(errors).as("%s", s.path("error_summary")).isPositive();
            assertThat(errors + valid).isEqualTo(40);
            assertThat(r.exitCode()).as("exit 1 only when no request was valid: %s", r.err()).isEqualTo(valid == 0 ? 1 : 0);
            final List<JsonNode> failed = Runs.jsonl(dir.resolve("profile_export.jsonl")).stream()
                    .filter(l -> !l.path("error").isMissingNode() && !l.path("error").isNull()).toList();
            assertThat(failed).hasSize((int) errors);
            // The error came in the stream, after the answer began: its record says what the server said.
            assertThat(failed).allSatisfy(l -> assertThat(l.path("error").toString()).isNotBlank());
        }
    }
}
