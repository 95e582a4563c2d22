package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordCodecTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] TEXTS = {"", "a", "id-\"q\"", "tab\there", "line\nbreak", "caf\u00e9",
        "\uD83D\uDE00 emoji", "\u0001\u001f control", "back\\slash", "\u2028 separator", "null"};

    /** read(write(x)) is x, for records of every shape: 500 of them from a fixed seed, so a failure repeats. */
    @Test
    void readingWhatWasWrittenGivesTheSameRecord() throws IOException {
        final Random random = new Random(25);
        final List<RecordLine> lines = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            lines.add(randomLine(random, i));
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLineWriter g = new JsonLineWriter(out)) {
            for (final RecordLine line : lines) {
                RecordCodec.writeLine(g, line);
            }
        }
        final List<String> text = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(text).hasSize(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(RecordCodec.read(text.get(i))).as("line %d: %s", i, text.get(i)).isEqualTo(lines.get(i));
        }
    }

    /** A line this engine did not write (an upstream one, with fields of its own) keeps them through a round trip. */
    @Test
    void fieldsThisEngineDoesNotWriteAreKept() throws IOException {
        final String upstream = "{\"metadata\":{\"session_num\":4,\"x_request_id\":\"r\",\"x_correlation_id\":\"c\","
                + "\"conversation_id\":\"v\",\"turn_index\":0,\"request_start_ns\":10,\"request_end_ns\":20,"
                + "\"worker_id\":\"worker_7\",\"record_processor_id\":\"rp_2\",\"benchmark_phase\":\"profiling\","
                + "\"was_cancelled\":false,\"credit_phase\":\"profiling\",\"timestamp_ns\":{\"a\":[1,2]}},"
                + "\"metrics\":{\"request_latency\":{\"value\":10.5,\"unit\":\"ms\"},\"output_sequence_length\":"
                + "{\"value\":12,\"unit\":\"tokens\"}},\"error\":{\"code\":500,\"type\":\"ServerError\",\"message\":\"m\","
                + "\"cause\":\"c\",\"cause_chain\":[\"a\",\"b\"],\"details\":{\"k\":1}},\"extra_block\":[true,null]}";
        final RecordLine r = RecordCodec.read(upstream);
        assertThat(r.metadata().workerId()).isEqualTo("worker_7");
        assertThat(r.metadata().requestedOutputTokens()).isEqualTo(-1);
        assertThat(r.metadata().extra()).containsOnlyKeys("credit_phase", "timestamp_ns");
        assertThat(r.extra()).containsOnlyKeys("extra_block");
        assertThat(r.error().extra()).containsOnlyKeys("cause", "cause_chain", "details");
        assertThat(r.metric("request_latency")).isEqualTo(new RecordLine.Metric(10.5, null, "ms"));
        assertThat(r.metric("output_sequence_length").value()).isEqualTo(12L);
        assertThat(JSON.readTree(write(r))).isEqualTo(JSON.readTree(upstream));
    }

    /**
     * Upstream's reader builds the metadata from exactly its own fields: this engine's go beside it, in
     * {@code client}, and a line written before they moved (inside {@code metadata}) still reads the same.
     */
    @Test
    void theEnginesOwnFieldsSitBesideTheMetadataAndOldLinesStillRead() throws IOException {
        final String head = "{\"metadata\":{\"session_num\":1,\"x_request_id\":\"r\",\"x_correlation_id\":\"c\","
                + "\"conversation_id\":\"v\",\"turn_index\":0,\"request_start_ns\":10";
        final String tail = "\"request_end_ns\":20,\"worker_id\":\"w\",\"record_processor_id\":\"p\","
                + "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false}";
        final String fields = "\"pool_wait_ns\":5,\"connect_ns\":7,\"retried\":true,\"redirects\":1,"
                + "\"malformed_chunks\":2,\"requested_output_tokens\":64";
        final RecordLine old = RecordCodec.read(head + "," + fields + "," + tail + ",\"metrics\":{},\"error\":null}");
        final RecordLine now = RecordCodec.read(head + "," + tail + ",\"client\":{" + fields
                + "},\"metrics\":{},\"error\":null}");
        assertThat(now).isEqualTo(old);
        assertThat(now.metadata().poolWaitNs()).isEqualTo(5);
        assertThat(now.metadata().requestedOutputTokens()).isEqualTo(64);
        final JsonNode written = JSON.readTree(write(old));
        assertThat(written.path("metadata").has("pool_wait_ns")).isFalse();
        assertThat(written.path("metadata").has("requested_output_tokens")).isFalse();
        assertThat(written.path("client")).isEqualTo(JSON.readTree("{" + fields + "}"));
    }

    @Test
    void aDamagedLineNamesWhatIsWrong() {
        assertThatThrownBy(() -> RecordCodec.read("{\"metadata\":{\"session_num\":1,\"x_req"))
                .isInstanceOf(JsonParseException.class);
        assertThatThrownBy(() -> RecordCodec.read("{\"metrics\":{}}")).isInstanceOf(JsonParseException.class)
                .hasMessageContaining("no metadata");
        assertThatThrownBy(() -> RecordCodec.read("{\"metadata\":{\"request_start_ns\":\"soon\"}}"))
                .hasMessageContaining("request_start_ns is not a whole number");
        assertThatThrownBy(() -> RecordCodec.read("{\"metadata\":{},\"metrics\":{\"ttft\":{\"value\":\"x\"}}}"))
                .hasMessageContaining("metric ttft is not a number");
        assertThatThrownBy(() -> RecordCodec.read("{\"metadata\":{}} {\"metadata\":{}}"))
                .hasMessageContaining("more than one record");
    }

    /** A file read strictly stops at a damaged line, naming it; read leniently, the line is reported and skipped. */
    @Test
    void aFileWithACutShortLastLine(@TempDir final Path dir) throws IOException {
        final Random random = new Random(7);
        final String whole = write(randomLine(random, 1));
        final String second = write(randomLine(random, 2));
        final Path file = dir.resolve("profile_export.jsonl");
        Files.writeString(file, whole + "\n\n" + second + "\n" + second.substring(0, second.length() / 2));
        assertThatThrownBy(() -> RecordCodec.forEach(file, r -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("line 4 is not a record");
        final List<RecordLine> read = new ArrayList<>();
        final List<Integer> damaged = new ArrayList<>();
        RecordCodec.forEach(file, read::add, damaged::add);
        assertThat(read).containsExactly(RecordCodec.read(whole), RecordCodec.read(second));
        assertThat(damaged).containsExactly(4);
    }

    private static String write(final RecordLine line) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLineWriter g = new JsonLineWriter(out)) {
            RecordCodec.writeLine(g, line); // a line not ended is never written
        }
        return out.toString(StandardCharsets.UTF_8).stripTrailing();
    }

    private static RecordLine randomLine(final Random r, final int i) {
        final Map<String, JsonNode> metaExtra = new LinkedHashMap<>();
        if (r.nextInt(4) == 0) {
            metaExtra.put("upstream_field_" + i, randomNode(r, 2));
        }
        final RecordLine.Metadata meta = new RecordLine.Metadata(r.nextInt(1_000_000), text(r), nullableText(r),
                nullableText(r), r.nextInt(50), 1_700_000_000_000_000_000L + r.nextInt(Integer.MAX_VALUE),
                optional(r), optional(r), optional(r), r.nextBoolean(), r.nextInt(3), r.nextInt(3),
                r.nextBoolean() ? -1 : r.nextInt(100_000), optional(r), optional(r), nullableText(r), nullableText(r),
                r.nextBoolean() ? "profiling" : "warmup", r.nextBoolean(), optional(r), metaExtra);
        final Map<String, RecordLine.Metric> metrics = new LinkedHashMap<>();
        final int n = r.nextInt(8);
        for (int k = 0; k < n; k++) {
            final String unit = r.nextBoolean() ? "ms" : r.nextBoolean() ? "tokens" : null;
            metrics.put("metric_" + k + "_" + text(r), switch (r.nextInt(5)) {
                case 0 -> new RecordLine.Metric((long) r.nextInt(Integer.MAX_VALUE), null, unit);
                case 1 -> new RecordLine.Metric(randomDouble(r), null, unit);
                case 2 -> new RecordLine.Metric(null, randomList(r), unit);
                case 3 -> new RecordLine.Metric(r.nextLong(), null, unit);
                default -> new RecordLine.Metric(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.TEN), null, unit);
            });
        }
        final JsonNode trace = r.nextInt(3) == 0 ? randomNode(r, 3) : null;
        final RecordLine.Error error = switch (r.nextInt(3)) {
            case 0 -> null;
            case 1 -> new RecordLine.Error(null, text(r), text(r));
            default -> new RecordLine.Error(400 + r.nextInt(200), text(r), text(r));
        };
        final Map<String, JsonNode> extra = new LinkedHashMap<>();
        if (r.nextInt(5) == 0) {
            extra.put("top_level_" + i, randomNode(r, 2));
        }
        return new RecordLine(meta, metrics, trace, error, extra);
    }

    private static long optional(final Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> -1;
            case 1 -> 0;
            default -> r.nextLong() & Long.MAX_VALUE;
        };
    }

    private static String text(final Random r) {
        return TEXTS[r.nextInt(TEXTS.length)] + r.nextInt(100);
    }

    private static String nullableText(final Random r) {
        return r.nextInt(6) == 0 ? null : text(r);
    }

    /** Finite doubles of every size: tiny, huge, negative, whole-valued, sub-microsecond milliseconds. */
    private static double randomDouble(final Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> r.nextDouble();
            case 1 -> r.nextInt(1_000_000_000) / 1e6;
            case 2 -> (r.nextBoolean() ? -1 : 1) * r.nextDouble() * Math.pow(10, r.nextInt(40) - 20);
            case 3 -> (double) r.nextInt(1000);
            default -> Double.longBitsToDouble(r.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL);
        };
    }

    private static List<Number> randomList(final Random r) {
        final List<Number> out = new ArrayList<>();
        final int n = r.nextInt(6);
        for (int k = 0; k < n; k++) {
            out.add(r.nextBoolean() ? randomDouble(r) : (Number) (long) r.nextInt(1000));
        }
        return out;
    }

    private static JsonNode randomNode(final Random r, final int depth) {
        final ObjectNode o = JSON.createObjectNode();
        final int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
            final String key = "k" + k + text(r);
            switch (depth <= 0 ? r.nextInt(4) : r.nextInt(6)) {
                case 0 -> o.put(key, r.nextLong());
                case 1 -> o.put(key, text(r));
                case 2 -> o.put(key, r.nextBoolean());
                case 3 -> o.putNull(key);
                case 4 -> o.set(key, randomNode(r, depth - 1));
                default -> o.putArray(key).add(randomDouble(r)).add(text(r)).add(randomNode(r, depth - 1));
            }
        }
        return o;
    }
}
