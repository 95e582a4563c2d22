package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --endpoint-type image_generation} (OpenAI's Images API) and {@code solido_rag} against the mock, and the
 * upstream endpoint types this engine refuses.
 */
class ImageGenerationAndRagEndToEndTest {
    @TempDir
    Path tmp;

    private static Runs.Result run(final MockServer mock, final Path dir, final String type, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "flux-test", "-u", mock.url(),
                "--endpoint-type", type, "--request-count", "3", "--concurrency", "1", "--tokenizer", "builtin",
                "--export-level", "raw", "--artifact-dir", dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(String[]::new));
    }

    /** Upstream's image generation tutorial's command (input file, size and quality as extra inputs). */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void imagesAreTimedWithoutTokenMetrics(final boolean streaming) throws Exception {
        final Path prompts = Files.writeString(tmp.resolve("image_prompts.jsonl"), """
                {"text": "A serene mountain landscape at sunset"}
                {"text": "A futuristic city with flying cars"}
                {"text": "A cute robot playing with a kitten"}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("images-" + streaming);
            final List<String> extra = new ArrayList<>(List.of("--input-file", prompts.toString(),
                    "--custom-dataset-type", "single_turn", "--extra-inputs", "size:512x512", "--extra-inputs",
                    "quality:standard"));
            if (streaming) {
                extra.addAll(List.of("--streaming", "--extra-inputs", "partial_images:2"));
            }
            final Runs.Result r = run(mock, dir, "image_generation", extra.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).contains("Image Generation Metrics");
            assertThat(mock.controlState().calls("/v1/images/generations")).isEqualTo(3);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(3);
            assertThat(s.path("error_request_count").isMissingNode()).as(s.path("error_summary").toString()).isTrue();
            // what upstream reports for images: latency, ISL of the prompt, throughput; no output tokens or TTFT
            assertThat(s.path("request_latency").path("avg").asDouble()).isPositive();
            assertThat(s.path("input_sequence_length").path("avg").asDouble()).isPositive();
            assertThat(s.path("request_throughput").path("avg").asDouble()).isPositive();
            for (final String absent : List.of("output_sequence_length", "time_to_first_token",
                    "inter_token_latency", "output_token_throughput")) {
                assertThat(s.has(absent)).as(absent).isFalse();
            }
            final List<JsonNode> raw = Runs.jsonl(dir.resolve("profile_export_raw.jsonl"));
            final List<String> sent = new ArrayList<>();
            for (final JsonNode line : raw) {
                final JsonNode request = line.path("request");
                sent.add(request.path("prompt").asText());
                assertThat(request.path("model").asText()).isEqualTo("flux-test");
                assertThat(request.path("response_format").asText()).isEqualTo("b64_json");
                assertThat(request.path("n").asInt()).isEqualTo(1);
                assertThat(request.path("size").asText()).isEqualTo("512x512");
                assertThat(request.path("quality").asText()).isEqualTo("standard");
                assertThat(request.has("stream")).isEqualTo(streaming);
                assertThat(request.has("messages")).isFalse();
            }
            assertThat(sent).containsExactlyInAnyOrder("A serene mountain landscape at sunset",
                    "A futuristic city with flying cars", "A cute robot playing with a kitten");
        }
    }

    @Test
    void aRefusedImageRequestIsAnErrorRecord() throws Exception {
        // an empty prompt (set over the generated one) gets the mock's 400: error records, and the run goes on
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("empty");
            final Runs.Result r = run(mock, dir, "image_generation", "--extra-inputs", "{\"prompt\": \"\"}");
            assertThat(r.exitCode()).as(r.err()).isNotEqualTo(2);
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("error_request_count").path("avg")
                    .asInt()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void solidoRagSendsAQueryWithItsFiltersAndReadsTheContent(final boolean streaming) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("rag-" + streaming);
            final List<String> extra = new ArrayList<>(List.of("--isl", "24", "--extra-inputs", "max_tokens:5"));
            if (streaming) {
                extra.add("--streaming");
            }
            final Runs.Result r = run(mock, dir, "solido_rag", extra.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).contains("SOLIDO RAG Metrics");
            assertThat(mock.controlState().calls("/rag/api/prompt")).isEqualTo(3);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("error_request_count").isMissingNode()).as(s.path("error_summary").toString()).isTrue();
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(5.0);
            assertThat(s.has("time_to_first_token")).isEqualTo(streaming);
            assertThat(s.has("inter_token_latency")).isEqualTo(streaming);
            final JsonNode request = Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0).path("request");
            assertThat(request.path("query").isArray()).isTrue();
            assertThat(request.path("query").path(0).asText()).isNotEmpty();
            assertThat(request.path("filters").path("family").asText()).isEqualTo("Solido");
            assertThat(request.path("filters").path("tool").asText()).isEqualTo("SDE");
            assertThat(request.path("inference_model").asText()).isEqualTo("flux-test");
            assertThat(request.has("model")).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"image_edit", "video_generation", "audio_transcription"})
    void multipartEndpointTypesAreRefusedInOneLineBeforeAnyTraffic(final String type) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = run(mock, tmp.resolve(type), type);
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err().strip()).doesNotContain("\n").contains("upstream AIPerf's endpoint type '" + type
                    + "'").contains("multipart/form-data");
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
}
