package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.time.WallClock;
import java.io.ByteArrayOutputStream;
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
}
