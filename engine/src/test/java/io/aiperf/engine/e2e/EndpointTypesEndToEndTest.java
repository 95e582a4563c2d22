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
import org.junit.jupiter.params.provider.CsvSource;

/** Every endpoint type against the mock: the request it sends, and the records and metrics of what came back. */
class EndpointTypesEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result run(final MockServer mock, final Path dir, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--request-count",
                "4", "--concurrency", "2", "--isl", "24", "--osl", "6", "--tokenizer", "builtin", "--export-level",
                "raw", "--artifact-dir", dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(String[]::new));
    }

    @ParameterizedTest
    @CsvSource({"responses,false", "responses,true", "huggingface_generate,false", "huggingface_generate,true"})
    void generatingEndpointsReportTokensAndLatencies(final String type, final boolean streaming) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve(type + streaming);
            final Runs.Result r = streaming ? run(mock, dir, "--endpoint-type", type, "--streaming")
                    : run(mock, dir, "--endpoint-type", type);
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("error_request_count").isMissingNode()).isTrue();
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(6.0);
            assertThat(s.has("time_to_first_token")).isEqualTo(streaming);
            final JsonNode raw = Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0);
            if (type.equals("responses")) {
                assertThat(raw.path("request").path("max_output_tokens").asInt()).isEqualTo(6);
                assertThat(raw.path("response").path("usage").path("completion_tokens").asInt()).isEqualTo(6);
            } else {
                assertThat(raw.path("request").path("parameters").path("max_new_tokens").asInt()).isEqualTo(6);
                assertThat(mock.controlState().calls(streaming ? "/generate_stream" : "/generate")).isEqualTo(4);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"chat_embeddings,messages", "nim_embeddings,input_type"})
    void embeddingVariantsSendTheirShape(final String type, final String field) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve(type);
            final Runs.Result r = run(mock, dir, "--endpoint-type", type);
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(4);
            assertThat(Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0).path("request").has(field)).isTrue();
        }
    }

    @ParameterizedTest
    @CsvSource({"nim_rankings,/v1/ranking,passages", "hf_tei_rankings,/rerank,texts",
            "cohere_rankings,/v2/rerank,documents"})
    void rankingsSendAQueryAndItsPassages(final String type, final String route, final String field) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve(type);
            final Runs.Result r = run(mock, dir, "--endpoint-type", type, "--rankings-passages-mean", "3",
                    "--rankings-passages-prompt-token-mean", "20", "--rankings-query-prompt-token-mean", "10");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().calls(route)).isEqualTo(4);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("input_sequence_length").path("avg").asDouble()).isEqualTo(10 + 3 * 20.0);
            final JsonNode request = Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0).path("request");
            assertThat(request.path(field)).hasSize(3);
        }
    }

    @Test
    void aTemplateEndpointSendsTheRenderedBodyAndReadsTheNamedField() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path yaml = Files.writeString(tmp.resolve("template.yaml"), """
                    benchmark:
                      model: m
                      endpoint:
                        url: %s
                        type: template
                        path: /v1/chat/completions
                        template:
                          body: |
                            {"model": {{ model|tojson }}, "messages": {{ messages }}, "max_tokens": {{ max_tokens }}, "temperature": 0}
                          response_field: choices.0.message.content
                    """.formatted(mock.url()));
            final Path dir = tmp.resolve("template");
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--request-count", "3", "--isl", "16",
                    "--osl", "5", "--tokenizer", "builtin", "--export-level", "raw", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(5.0);
            final JsonNode request = Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0).path("request");
            assertThat(request.path("temperature").asInt()).isZero();
            assertThat(request.path("messages").path(0).path("role").asText()).isEqualTo("user");
            final Path broken = Files.writeString(tmp.resolve("broken.yaml"), """
                    benchmark:
                      model: m
                      endpoint: {url: "http://127.0.0.1:9", type: template, template: {body: "{\\"x\\": {{ nope }}}"}}
                    """);
            final Runs.Result bad = Runs.aiperf("profile", "-f", broken.toString(), "--artifact-dir",
                    tmp.resolve("none").toString());
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("template").contains("unknown placeholder 'nope'");
        }
    }

    @ParameterizedTest
    @CsvSource({"false,''", "true,''", "false,choices[0].message.content"})
    void rawPayloadsAreSentAsTheFileHasThem(final boolean streaming, final String responseField) throws Exception {
        final Path rows = java.nio.file.Files.writeString(tmp.resolve("payloads" + streaming + ".jsonl"), """
                {"model": "m", "messages": [{"role": "user", "content": "first question"}], "max_tokens": 5, "stream": %s, "seed": 7}
                {"model": "m", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "second"}], "max_tokens": 3, "stream": %s}
                """.formatted(streaming, streaming));
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("raw" + streaming + responseField.length());
            final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--endpoint-type",
                    "raw", "--input-file", rows.toString(), "--custom-dataset-type", "raw_payload", "--tokenizer",
                    "builtin", "--export-level", "raw", "--artifact-dir", dir.toString()));
            if (streaming) {
                args.add("--streaming");
            }
            if (!responseField.isEmpty()) {
                args.addAll(List.of("--extra-inputs", "response_field:" + responseField));
            }
            final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(2); // every row once
            assertThat(s.path("error_request_count").isMissingNode()).isTrue();
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(4.0); // 5 and 3, as asked
            final List<JsonNode> raw = Runs.jsonl(dir.resolve("profile_export_raw.jsonl"));
            final JsonNode first = raw.stream().filter(l -> l.path("request").path("seed").asInt() == 7).findFirst()
                    .orElseThrow();
            // The body as written: its own fields, nothing added (no stream_options, no extra inputs).
            assertThat(first.path("request").toString()).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":"
                    + "\"user\",\"content\":\"first question\"}],\"max_tokens\":5,\"stream\":" + streaming
                    + ",\"seed\":7}");
            assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(2);
        }
    }

    @Test
    void rawNeedsRawPayloadRows() throws Exception {
        // (raw_payload rows go to any endpoint type, as upstream's: UpstreamInputsEndToEndTest)
        final Runs.Result noFile = Runs.aiperf("profile", "-m", "m", "--endpoint-type", "raw", "--artifact-dir",
                tmp.resolve("a").toString());
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.err()).contains("--custom-dataset-type raw_payload");
    }
}
