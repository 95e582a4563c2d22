package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real workloads from files: single-turn prompts, and a mooncake trace replayed on its own timestamps. */
class InputFileEndToEndTest {
    @TempDir
    Path tmp;

    private static final String TRACE = """
            {"timestamp": 0, "input_length": 20, "output_length": 4, "hash_ids": [1, 2, 3]}
            {"timestamp": 100, "input_length": 20, "output_length": 4, "hash_ids": [1, 2, 4]}
            {"timestamp": 200, "input_length": 12, "output_length": 4, "hash_ids": [5, 6]}
            {"timestamp": 300, "input_length": 20, "output_length": 4, "hash_ids": [1, 2, 3]}

            {"timestamp": 400, "input_length": 9, "output_length": 4}
            """;

    private static List<JsonNode> byCredit(final Path dir) throws Exception {
        final List<JsonNode> lines = new java.util.ArrayList<>(Runs.jsonl(dir.resolve("profile_export.jsonl")));
        lines.sort(Comparator.comparingLong(l -> l.path("metadata").path("credit_issued_ns").asLong()));
        return lines;
    }

    @Test
    void aTimestampedTraceReplaysOnItsOwnScheduleWithSharedPrefixes() throws Exception {
        final Path trace = Files.writeString(tmp.resolve("trace.jsonl"), TRACE);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("replay");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--input-file",
                    trace.toString(), "--custom-dataset-type", "mooncake_trace", "--isl-block-size", "8",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(5); // every row once, no 10-request default
            // The echo holds what was given, in upstream's shape: the trace file, not the schedule derived from it.
            assertThat(s.path("input_config").path("datasets").get(0).path("format").asText()).isEqualTo("mooncake_trace");
            // upstream's command line writes its one profiling phase with its kind, its type and, for a fixed schedule
            // given no bound, the trace's rows as its requests; nothing of the schedule itself
            assertThat(s.path("input_config").path("phases").toString()).isEqualTo(
                    "[{\"name\":\"profiling\",\"kind\":\"profiling\",\"type\":\"fixed_schedule\",\"requests\":5}]");
            final List<JsonNode> lines = byCredit(dir);
            final long zero = lines.get(0).path("metadata").path("credit_issued_ns").asLong();
            final double lagMs = s.path("client_health").path("open_loop").path("profiling").path("schedule_lag_max_ms")
                    .asDouble();
            for (int i = 0; i < 5; i++) {
                final double offsetMs = (lines.get(i).path("metadata").path("credit_issued_ns").asLong() - zero) / 1e6;
                assertThat(offsetMs).as("row " + i + " credit").isCloseTo(i * 100.0, org.assertj.core.data.Offset.offset(0.001));
            }
            // Sent when due: the schedule's credits are exact, the sends late by at most the measured lag, which is
            // small unless this machine's timers ran late during the run (a busy host).
            final double starved = s.path("client_health").path("wakeup_delay_p99_ms").asDouble(0);
            assertThat(lagMs).isLessThan(100 + 10 * starved);
            assertReplayScheduleLag(s, lines, dir);
            // Rows with the same hash ids send the same prompt; rows sharing ids share its beginning.
            final List<String> prompts = Runs.json(dir.resolve("inputs.json")).findValues("content").stream()
                    .map(JsonNode::asText).toList();
            assertThat(prompts).hasSize(5);
            assertThat(prompts.get(3)).isEqualTo(prompts.get(0));
            final String sharedPrefix = prompts.get(0).substring(0, prompts.get(0).length() / 2);
            assertThat(prompts.get(1)).startsWith(sharedPrefix);
            assertThat(prompts.get(2)).doesNotStartWith(sharedPrefix);
            assertThat(s.path("input_sequence_length").path("max").asDouble()).isBetween(19.0, 22.0);
            // The server saw it too: rows 2 and 4 reuse the cached blocks of row 1, row 3 shares nothing.
            @SuppressWarnings("unchecked")
            final List<java.util.Map<String, Object>> seen =
                    (List<java.util.Map<String, Object>>) mock.controlState().promptsSeen().get("recent");
            assertThat(seen).hasSize(5);
            assertThat(seen.stream().filter(m -> ((Integer) m.get("blocks_reused")) > 0).count()).isEqualTo(2);
        }
    }

    /**
     * Upstream's replay-schedule metrics: each send's lateness against its scheduled time (the record's start less its
     * credit), less the least late one's, at p50/p90/p99 interpolated between ranks; degraded when p99 passes 500 ms.
     */
    private static void assertReplayScheduleLag(final JsonNode s, final List<JsonNode> lines, final Path dir)
            throws Exception {
        final double[] offsets = lines.stream().mapToDouble(l -> (l.path("metadata").path("request_start_ns").asLong()
                - l.path("metadata").path("credit_issued_ns").asLong()) / 1e6).sorted().toArray();
        final double[] lags = java.util.Arrays.stream(offsets).map(o -> o - offsets[0]).toArray();
        final String[] tags = {"replay_sched_lag_p50", "replay_sched_lag_p90", "replay_sched_lag_p99"};
        final double[] q = {50, 90, 99};
        for (int i = 0; i < tags.length; i++) {
            final double rank = q[i] / 100 * (lags.length - 1);
            final int below = (int) rank;
            final double expected = lags[below] + (lags[Math.min(below + 1, lags.length - 1)] - lags[below])
                    * (rank - below);
            assertThat(s.path(tags[i]).path("unit").asText()).isEqualTo("ms");
            assertThat(s.path(tags[i]).path("avg").asDouble()).as(tags[i]).isGreaterThanOrEqualTo(0)
                    .isCloseTo(expected, org.assertj.core.data.Offset.offset(0.01));
        }
        final double p99 = s.path("replay_sched_lag_p99").path("avg").asDouble();
        assertThat(s.path("replay_sched_degraded").path("avg").asDouble()).isEqualTo(p99 > 500 ? 1.0 : 0.0);
        assertThat(s.path("replay_sched_degraded").path("unit").asText()).isEqualTo("count");
        final String csv = Files.readString(dir.resolve("profile_export_aiperf.csv"));
        // upstream's rows, in its order (by tag) among the run-level values
        assertThat(csv).containsSubsequence("\nReplay Schedule Degraded,", "\nReplay Schedule Lag p50 (ms),",
                "\nReplay Schedule Lag p90 (ms),", "\nReplay Schedule Lag p99 (ms),", "\nRequest Count,");
    }

    @Test
    void theScheduleWindowPicksRowsByTimestamp() throws Exception {
        final Path trace = Files.writeString(tmp.resolve("trace.jsonl"), TRACE);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("window");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file", trace.toString(),
                    "--custom-dataset-type", "mooncake_trace", "--isl-block-size", "8", "--tokenizer", "builtin",
                    "--fixed-schedule-start-offset", "100", "--fixed-schedule-end-offset", "300",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = byCredit(dir);
            assertThat(lines).hasSize(3);
            final long zero = lines.get(0).path("metadata").path("credit_issued_ns").asLong();
            assertThat((lines.get(2).path("metadata").path("credit_issued_ns").asLong() - zero) / 1e6)
                    .isCloseTo(200.0, org.assertj.core.data.Offset.offset(0.001));
        }
    }

    @Test
    void traceRowsWithTextInputAreDetectedAndSendTheirTextOnTheirSchedule() throws Exception {
        final Path trace = Files.writeString(tmp.resolve("texts.jsonl"), """
                {"timestamp": 0, "text_input": "What is the capital of France?", "output_length": 3}
                {"timestamp": 50, "input_length": 12, "output_length": 3}
                {"timestamp": 100, "text_input": "Name three rivers.", "output_length": 3}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("texts");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file", trace.toString(),
                    "--fixed-schedule", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(3);
            // told from the rows: a trace (a single_turn file has no input_length rows), replayed on its timestamps
            final List<JsonNode> lines = byCredit(dir);
            final long zero = lines.get(0).path("metadata").path("credit_issued_ns").asLong();
            assertThat((lines.get(2).path("metadata").path("credit_issued_ns").asLong() - zero) / 1e6)
                    .isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.001));
            final List<String> prompts = Runs.json(dir.resolve("inputs.json")).findValues("content").stream()
                    .map(JsonNode::asText).toList();
            assertThat(prompts).hasSize(3);
            assertThat(prompts.get(0)).isEqualTo("What is the capital of France?");
            assertThat(prompts.get(2)).isEqualTo("Name three rivers.");
            assertThat(s.path("input_sequence_length").path("min").asDouble()).isEqualTo(4.0); // o200k: 4 tokens
        }
        final Path hashes = Files.writeString(tmp.resolve("hashes.jsonl"),
                "{\"text_input\": \"hello\", \"hash_ids\": [1]}\n");
        final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--input-file",
                hashes.toString(), "--artifact-dir", tmp.resolve("none").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("line 1").contains("hash_ids need input_length");
    }

    @Test
    void singleTurnRowsAreSentAsWrittenAndCountedWithTheTokenizer() throws Exception {
        final Path file = Files.writeString(tmp.resolve("prompts.jsonl"), """
                {"text": "What is the capital of France?"}
                {"text": ["Summarise this:", "the quick brown fox"], "output_length": 3}
                {"text": "Tell me a story about a lighthouse keeper."}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("single");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file", file.toString(),
                    "--tokenizer", "builtin", "--osl", "5", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).doesNotContain("no stop condition");
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(3);
            assertThat(Runs.json(dir.resolve("inputs.json")).findValues("content").stream().map(JsonNode::asText))
                    .containsExactly("What is the capital of France?", "Summarise this: the quick brown fox",
                            "Tell me a story about a lighthouse keeper.");
            assertThat(s.path("input_sequence_length").path("min").asDouble()).isEqualTo(7.0); // o200k_base
        }
    }

    @Test
    void aBadRowIsAConfigurationErrorNamingTheLine() throws Exception {
        final Path file = Files.writeString(tmp.resolve("bad.jsonl"), "{\"text\": \"ok\"}\n{\"text\": \n");
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--input-file",
                file.toString(), "--artifact-dir", tmp.resolve("none").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--input-file").contains("line 2");
        final Runs.Result window = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--fixed-schedule-start-offset", "5", "--artifact-dir", tmp.resolve("none").toString());
        assertThat(window.exitCode()).isEqualTo(2);
        assertThat(window.err()).contains("can only be used with --fixed-schedule");
    }

    @Test
    void imagesAndAudioInRowsAreSentAsContentParts() throws Exception {
        // A tiny PNG signature is enough: the engine sends files as they are, base64 in a data: URL.
        final byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 1, 2, 3};
        Files.write(tmp.resolve("cat.png"), png);
        Files.write(tmp.resolve("hello.wav"), new byte[] {'R', 'I', 'F', 'F', 0, 0, 0, 0});
        final Path rows = Files.writeString(tmp.resolve("mm.jsonl"), """
                {"text": "What is in the image?", "image": "cat.png"}
                {"text": "Compare them.", "images": ["https://example.invalid/a.jpg", "cat.png"], "audio": "hello.wav"}
                {"image": "data:image/png;base64,iVBORw0KGgo="}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("mm");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file", rows.toString(),
                    "--custom-dataset-type", "single_turn", "--request-count", "3", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().promptsSeen().get("images")).isEqualTo(4L);
            assertThat(mock.controlState().promptsSeen().get("audios")).isEqualTo(1L);
            final JsonNode inputs = Runs.json(dir.resolve("inputs.json"));
            final String first = inputs.path("data").get(0).toString();
            assertThat(first).contains("\"type\":\"text\"").contains("\"type\":\"image_url\"")
                    .contains("data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(png));
            assertThat(inputs.path("data").get(1).toString()).contains("https://example.invalid/a.jpg")
                    .contains("\"input_audio\"").contains("\"format\":\"wav\"");
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(3);
        }
        // A missing file names the row; an endpoint that cannot carry images says which can; both before traffic.
        final Path missing = Files.writeString(tmp.resolve("missing.jsonl"), "{\"text\": \"x\"}\n"
                + "{\"text\": \"y\", \"image\": \"nowhere.png\"}\n");
        final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--input-file",
                missing.toString(), "--artifact-dir", tmp.resolve("bad").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("line 2").contains("nowhere.png").contains("no such file");
        final Runs.Result completions = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--endpoint-type", "completions", "--input-file", rows.toString(), "--artifact-dir",
                tmp.resolve("bad2").toString());
        assertThat(completions.exitCode()).isEqualTo(2);
        assertThat(completions.err()).contains("--endpoint-type completions cannot send");
    }

    /** A row cannot make the engine send any readable file: media lie under the input file's folder. */
    @Test
    void mediaOutsideTheInputFilesFolderAreRefusedUnlessAllowed() throws Exception {
        final Path data = Files.createDirectories(tmp.resolve("data"));
        final Path secret = Files.write(tmp.resolve("secret.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 7});
        Files.createSymbolicLink(data.resolve("link.png"), secret);
        Files.write(data.resolve("ok.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 1});
        for (final String image : new String[] {secret.toString(), "link.png", "../secret.png"}) {
            final Path rows = Files.writeString(data.resolve("rows.jsonl"), "{\"text\": \"a\", \"image\": \"ok.png\"}\n"
                    + "{\"text\": \"b\", \"images\": [\"" + image + "\"]}\n");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--input-file",
                    rows.toString(), "--tokenizer", "builtin", "--artifact-dir", tmp.resolve("out").toString());
            assertThat(r.exitCode()).as(image + ": " + r.all()).isEqualTo(2);
            assertThat(r.err()).contains("line 2").contains("image " + image).contains("lies outside")
                    .contains("--media-root").doesNotContain("\tat "); // one line, no stack trace
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path rows = Files.writeString(data.resolve("rows.jsonl"), "{\"text\": \"b\", \"image\": \"link.png\"}\n");
            final Runs.Result allowed = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file",
                    rows.toString(), "--tokenizer", "builtin", "--request-count", "1", "--media-root", tmp.toString(),
                    "--artifact-dir", tmp.resolve("allowed").toString());
            assertThat(allowed.exitCode()).as(allowed.all()).isZero();
            assertThat(mock.controlState().promptsSeen().get("images")).isEqualTo(1L);
        }
    }

    @Test
    void imageRetrievalSendsTheRowsImagesAndReportsImageMetrics() throws Exception {
        Files.write(tmp.resolve("dog.jpg"), new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff, 1});
        final Path rows = Files.writeString(tmp.resolve("retrieval.jsonl"), """
                {"image": "dog.jpg"}
                {"images": ["https://example.invalid/a.png", "dog.jpg"]}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("retrieval");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--endpoint-type",
                    "image_retrieval", "--input-file", rows.toString(), "--request-count", "4", "--tokenizer",
                    "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().calls("/v1/image/infer")).isEqualTo(4);
            assertThat(mock.controlState().promptsSeen().get("images")).isEqualTo(6L); // 1 + 2, twice
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("num_images").path("avg").asDouble()).isEqualTo(1.5);
            assertThat(s.path("num_images").path("max").asDouble()).isEqualTo(2.0);
            // The mock spends 3 ms per image, so each image takes at least 3 ms of a request.
            assertThat(s.path("image_latency").path("min").asDouble()).isGreaterThanOrEqualTo(3.0);
            assertThat(s.path("image_throughput").path("max").asDouble()).isPositive().isLessThanOrEqualTo(1000.0 / 3);
            final JsonNode body = Runs.json(dir.resolve("inputs.json")).path("data").get(1);
            assertThat(body.toString()).contains("{\"type\":\"image_url\",\"url\":\"https://example.invalid/a.png\"}")
                    .doesNotContain("\"model\"");
        }
        final Runs.Result synthetic = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--endpoint-type",
                "image_retrieval", "--artifact-dir", tmp.resolve("none").toString());
        assertThat(synthetic.exitCode()).isEqualTo(2);
        assertThat(synthetic.err()).contains("image_retrieval sends the images of each row");
    }
}
