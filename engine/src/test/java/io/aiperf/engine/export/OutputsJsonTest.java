package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.time.WallClock;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputsJsonTest {
    private static final WallClock WALL = new WallClock(System::nanoTime);

    private static RequestRecord record(final boolean profiling, final int session, final int turn, final String id,
                                        final String text) {
        final ResponseData response = new ResponseData(1_000_000L, 2_000_000L, new long[] {3_000_000L, 4_000_000L}, 2,
                0, text, null, null, null, 0, TransportTimes.NONE);
        return new RequestRecord(profiling ? "profiling" : "warmup", profiling, session, id, "c-" + id, "conv-" + session,
                turn, "m", 1_700_000_000_000_000_000L, 8, null, response, false, -1, null, -1, 0);
    }

    private static void add(final OutputsJson outputs, final RequestRecord r) throws Exception {
        outputs.add(r, RecordMetrics.of(r, true, false, Tokenizer.builtin()), !r.profiling());
    }

    @Test
    void entriesComeBackFromTheSpoolSortedBySessionAndTurnWithWarmupApartAndTheSpoolIsRemoved(@TempDir final Path dir)
            throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputsJson outputs = new OutputsJson(WALL, dir)) {
            add(outputs, record(true, 2, 1, "s2t1", "late \"quoted\" \u00e9"));
            add(outputs, record(false, 0, 0, "w0", "warm"));
            add(outputs, record(true, 1, 0, "s1t0", "first"));
            add(outputs, record(true, 2, 0, "s2t0", ""));
            add(outputs, record(true, 1, 0, "s1t0-again", "same key, later"));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).singleElement().asString()
                        .startsWith(".outputs-").endsWith(".spool");
            }
            outputs.writeTo(out);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("the spool is gone").isEmpty();
        }
        final String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("{\n").contains("\n  \"data\" : [ {"); // pretty, as Jackson's default printer
        final JsonNode root = new ObjectMapper().readTree(text);
        assertThat(root.path("schema_version").asText()).isEqualTo("1.1");
        // byte for byte what writing the whole tree at once (as before the spool) gives
        assertThat(text).isEqualTo(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(root));
        final List<String> ids = new ArrayList<>();
        root.path("data").forEach(o -> ids.add(o.path("x_request_id").asText()));
        assertThat(ids).containsExactly("s1t0", "s1t0-again", "s2t0", "s2t1");
        assertThat(root.path("data").get(3).path("response_text").asText()).isEqualTo("late \"quoted\" \u00e9");
        assertThat(root.path("data").get(2).path("response_text").isNull()).isTrue();
        assertThat(root.path("data").get(0).path("metrics").path("output_token_count").asLong()).isPositive();
        assertThat(root.path("warmup")).hasSize(1);
        assertThat(root.path("warmup").get(0).path("benchmark_phase").asText()).isEqualTo("warmup");
    }

    @Test
    void manyEntriesAreWrittenInOrderAcrossTheIndexesGrowth(@TempDir final Path dir) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputsJson outputs = new OutputsJson(WALL, dir)) {
            for (int i = 999; i >= 0; i--) {
                add(outputs, record(true, i, 0, "r" + i, "answer " + i));
            }
            outputs.writeTo(out);
        }
        final JsonNode data = new ObjectMapper().readTree(out.toByteArray()).path("data");
        assertThat(data).hasSize(1000);
        for (int i = 0; i < 1000; i++) {
            assertThat(data.get(i).path("response_text").asText()).isEqualTo("answer " + i);
        }
    }
}
