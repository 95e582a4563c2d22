package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line of profile_export.jsonl loads as upstream AIPerf's record model ({@code MetricRecordInfo}: metadata,
 * metrics, error), for a failed, a cancelled and a streamed run. The schema is written here from upstream's
 * fields (0.13's, read from its installed package): required ones required, types as upstream types them. Its metadata takes no field beyond its own (its
 * reader builds them by keyword, and an unknown keyword is refused); a field beside the metadata is ignored.
 */
class RecordSchemaEndToEndTest {
    private static final String SCHEMA = """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "required": ["metadata", "metrics"],
              "properties": {
                "metadata": {
                  "type": "object",
                  "required": ["session_num", "request_start_ns", "request_end_ns", "worker_id",
                               "record_processor_id", "benchmark_phase"],
                  "properties": {
                    "session_num": {"type": "integer"},
                    "x_request_id": {"type": ["string", "null"]},
                    "x_correlation_id": {"type": ["string", "null"]},
                    "conversation_id": {"type": ["string", "null"]},
                    "turn_index": {"type": ["integer", "null"]},
                    "request_start_ns": {"type": "integer"},
                    "request_ack_ns": {"type": ["integer", "null"]},
                    "request_end_ns": {"type": "integer"},
                    "worker_id": {"type": "string"},
                    "record_processor_id": {"type": "string"},
                    "benchmark_phase": {"enum": ["warmup", "profiling"]},
                    "was_cancelled": {"type": "boolean"},
                    "cancellation_time_ns": {"type": ["integer", "null"]},
                    "request_num": {"type": ["integer", "null"]},
                    "credit_issued_ns": {"type": ["integer", "null"]},
                    "credit_received_ns": {"type": ["integer", "null"]},
                    "clock_offset_ns": {"type": ["integer", "null"]},
                    "phase_index": {"type": ["integer", "null"]},
                    "profiling_index": {"type": ["integer", "null"]},
                    "phase_name": {"type": ["string", "null"]},
                    "phase_kind": {"enum": ["warmup", "profiling", null]},
                    "context_overflow_skip": {"type": "boolean"},
                    "agent_depth": {"type": "integer"},
                    "parent_correlation_id": {"type": ["string", "null"]},
                    "root_correlation_id": {"type": ["string", "null"]}
                  },
                  "additionalProperties": false
                },
                "metrics": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "object",
                    "required": ["value", "unit"],
                    "properties": {
                      "value": {"anyOf": [{"type": "number"}, {"type": "array", "items": {"type": "number"}}]},
                      "unit": {"type": "string"}
                    }
                  }
                },
                "error": {
                  "anyOf": [
                    {"type": "null"},
                    {"type": "object", "required": ["message"],
                     "properties": {"code": {"type": ["integer", "null"]}, "type": {"type": ["string", "null"]},
                                    "message": {"type": "string"}}}
                  ]
                },
                "trace_data": {"type": ["object", "null"]}
              }
            }
            """;
    private static Schema schema;

    @TempDir
    Path tmp;

    @BeforeAll
    static void loadSchema() {
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(SCHEMA);
    }

    /** Every line's schema errors, by line; empty when all lines validate. */
    private static List<String> violations(final List<JsonNode> lines) {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final int line = i + 1;
            schema.validate(lines.get(i)).forEach(e -> out.add("line " + line + ": " + e));
        }
        return out;
    }

    private List<JsonNode> run(final MockServer mock, final String name, final String... extra) throws Exception {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--isl", "8",
                "--osl", "4", "--request-count", "12", "--concurrency", "3", "--random-seed", "2", "--tokenizer",
                "builtin", "--max-error-rate", "100", "--artifact-dir", tmp.resolve(name).toString()));
        args.addAll(List.of(extra));
        Runs.aiperf(args.toArray(new String[0]));
        return Runs.jsonl(tmp.resolve(name).resolve("profile_export.jsonl"));
    }

    @Test
    void theSchemaRejectsWhatUpstreamsModelRejects() throws Exception {
        final JsonNode noEnd = new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"metadata\": "
                + "{\"session_num\": 0, \"request_start_ns\": 1, \"worker_id\": \"w\", \"record_processor_id\": \"r\","
                + " \"benchmark_phase\": \"profiling\"}, \"metrics\": {}, \"error\": {\"message\": \"x\"}}");
        assertThat(violations(List.of(noEnd))).singleElement().asString().contains("request_end_ns");
        final JsonNode foreign = new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"metadata\": "
                + "{\"session_num\": 0, \"request_start_ns\": 1, \"request_end_ns\": 2, \"worker_id\": \"w\", "
                + "\"record_processor_id\": \"r\", \"benchmark_phase\": \"profiling\", \"pool_wait_ns\": 0}, "
                + "\"metrics\": {}}");
        assertThat(violations(List.of(foreign))).singleElement().asString().contains("pool_wait_ns");
    }

    @Test
    void failedCancelledAndStreamedRecordsAllValidate() throws Exception {
        try (MockServer failing = MockServer.start(MockServerConfig.fast().withErrorRate(100))) {
            final List<JsonNode> failed = run(failing, "failed", "--streaming");
            assertThat(failed).hasSize(12).allMatch(l -> l.path("error").isObject());
            assertThat(violations(failed)).isEmpty();
        }
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(200, 5))) {
            final List<JsonNode> cancelled = run(slow, "cancelled", "--streaming", "--request-cancellation-rate",
                    "50", "--request-cancellation-delay", "0.05");
            assertThat(cancelled).hasSize(12).anyMatch(l -> l.path("metadata").path("was_cancelled").asBoolean());
            assertThat(violations(cancelled)).isEmpty();
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(20))) {
            final List<JsonNode> streamed = run(mock, "streamed", "--streaming", "--export-http-trace");
            assertThat(streamed).hasSize(12).anyMatch(l -> l.path("metrics").has("inter_chunk_latency"));
            assertThat(violations(streamed)).isEmpty();
        }
    }
}
