package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.time.WallClock;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.Usage;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordsJsonlWriterTest {
    private static RequestRecord record(final boolean profiling, final String id) {
        final ResponseData response = new ResponseData(1_000_000L, 2_000_000L, new long[] {3_000_000L, 4_000_000L}, 2,
                0, "one two", null, null, null, 0, TransportTimes.NONE);
        return new RequestRecord(profiling ? "profiling" : "warmup", profiling, 0, id, "c-" + id, "conv", 0, "m",
                1_700_000_000_000_000_000L, 8, null, response, false, -1, null, -1, 0);
    }

    @Test
    void rehearsedWarmupRecordsLeaveNothingInEitherFile() throws Exception {
        final ByteArrayOutputStream lines = new ByteArrayOutputStream();
        final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        final WallClock wall = new WallClock(System::nanoTime);
        try (RecordsJsonlWriter w = new RecordsJsonlWriter(lines, raw, wall)) {
            for (int i = 0; i < 1_000; i++) {
                final RequestRecord warm = record(false, "w" + i);
                w.rehearse(warm, RecordMetrics.of(warm, true, false, Tokenizer.builtin()));
            }
            final RequestRecord measured = record(true, "p1");
            w.write(measured, RecordMetrics.of(measured, true, false, Tokenizer.builtin()));
        }
        final String file = lines.toString(StandardCharsets.UTF_8);
        assertThat(file.lines()).hasSize(1);
        assertThat(file).contains("\"x_request_id\":\"p1\"").doesNotContain("\"w0\"").doesNotContain("warmup");
        assertThat(raw.toString(StandardCharsets.UTF_8).lines()).hasSize(1);
    }

    /**
     * Each line, read as a tree and written again by a generator set up as the writer's is (shortest doubles, no
     * spaces), comes back byte for byte: valid JSON, one object per line, Jackson's escapes and number forms, whatever
     * the ids and error messages hold; and the fields each kind of record must carry are there.
     */
    @Test
    void everyLineIsWhatJacksonWouldWriteForTheSameTree() throws Exception {
        final List<RequestRecord> records = new ArrayList<>();
        final long t = 5_000_000_000L;
        final long[] chunks = new long[40];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = t + 50_000_000L + i * 20_034_567L;
        }
        // streamed, with usage and reasoning, a retry and a connect
        records.add(new RequestRecord("profiling", true, 3, "id-1", "corr-1", "conv-1", 2, "m", 1_700_000_000_123_456_789L,
                550, 64, new ResponseData(t, t + 1_000, chunks, chunks.length, 1, "tok ".repeat(40), "thinking",
                new Usage(550, 40, 590, 7), null, 2, new TransportTimes(t - 3_000_000, t - 2_000_000, t - 1_000_000,
                true, 1, false)), false, t - 4_000_000, "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8),
                -1, 0));
        // whole answer, no usage
        records.add(new RequestRecord("profiling", true, 0, "id-2", "corr-2", "conv-2", 0, "m", 1_700_000_000_000_000_000L,
                16, null, new ResponseData(t, t + 241_703, new long[] {t + 241_703}, 1, 0, "one two", null, null,
                null, 0, TransportTimes.NONE), false, -1, null, -1, 0));
        // failed, with a message that needs every kind of escape, and odd ids
        records.add(new RequestRecord("profiling", true, 7, "id-\"3\"", "corr-\u00e9\uD83D\uDE00", "conv\t3", 1, "m",
                1_700_000_000_000_000_001L, 9, 5, ResponseData.failed(t, new ErrorDetails(503,
                "ServerError", "line one\nline \"two\" \\ back\u0001\u001f\b\f\r\t caf\u00e9 \u2028 \uD83D\uDE00")),
                false, -1, null, -1, 0));
        // cancelled as asked, without a code
        records.add(new RequestRecord("warmup", false, 1, "id-4", "corr-4", "conv-4", 0, "m", 1_700_000_000_000_000_002L,
                9, 5, new ResponseData(t, t + 10, new long[] {t + 20}, 1, 0, "partial", null, null,
                new ErrorDetails(null, "RequestCancellationError", "cancelled after 0.5 s"), 0, TransportTimes.NONE),
                true, -1, null, t + 500_000_000L, 0));
        final ByteArrayOutputStream lines = new ByteArrayOutputStream();
        final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        try (RecordsJsonlWriter w = new RecordsJsonlWriter(lines, raw, new WallClock(System::nanoTime))) {
            for (final RequestRecord r : records) {
                w.write(r, RecordMetrics.of(r, r.xRequestId().equals("id-1"), true, Tokenizer.builtin()));
            }
        }
        final ObjectMapper json = new ObjectMapper();
        final List<String> all = new ArrayList<>(lines.toString(StandardCharsets.UTF_8).lines().toList());
        assertThat(all).hasSize(records.size());
        all.addAll(raw.toString(StandardCharsets.UTF_8).lines().toList());
        assertThat(all).hasSize(2 * records.size());
        for (final String line : all) {
            final ByteArrayOutputStream again = new ByteArrayOutputStream();
            try (JsonGenerator g = json.getFactory().createGenerator(again)) {
                g.configure(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature(), true);
                json.writeTree(g, json.readTree(line));
            }
            assertThat(line).isEqualTo(again.toString(StandardCharsets.UTF_8));
        }
        assertThat(all.get(0)).contains("\"inter_chunk_latency\":{\"value\":[20.034567,").contains("\"retried\":true")
                .contains("\"malformed_chunks\":2").contains("\"connect_ns\":1000000").contains("\"redirects\":1");
        assertThat(all.get(1)).doesNotContain("redirects");
        assertThat(all.get(1)).contains("\"request_latency\":{\"value\":0.241703,\"unit\":\"ms\"}");
        assertThat(all.get(2)).contains("\"error\":{\"code\":503,\"type\":\"ServerError\"")
                .contains("\\u0001").contains("\\n");
        assertThat(all.get(3)).contains("\"benchmark_phase\":\"warmup\"").contains("\"was_cancelled\":true")
                .contains("\"cancellation_time_ns\":");
        assertThat(all.get(4)).contains("\"request\":{\"model\":\"m\",\"messages\":[]}")
                .contains("\"usage\":{\"prompt_tokens\":550,\"completion_tokens\":40,\"total_tokens\":590,"
                        + "\"reasoning_tokens\":7}");
    }
}
