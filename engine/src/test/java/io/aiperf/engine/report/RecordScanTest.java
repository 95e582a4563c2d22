package io.aiperf.engine.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's one pass over a records file: the fields it draws, whatever else a record holds. */
class RecordScanTest {
    @TempDir
    Path dir;

    @Test
    void readsLatenciesAndSpansSkipsTheRestAndLeavesOutADamagedLine() throws Exception {
        final Path file = dir.resolve("profile_export.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"metadata\":{\"x_request_id\":\"a\",\"request_start_ns\":100,\"request_end_ns\":250,"
                        + "\"nested\":{\"deep\":[1,{\"request_end_ns\":9}]}},"
                        + "\"metrics\":{\"time_to_first_token\":{\"value\":1.5,\"unit\":\"ms\"},"
                        + "\"request_latency\":{\"value\":12.25,\"unit\":\"ms\"},\"inter_chunk_latency\":"
                        + "{\"value\":[1,2,3],\"unit\":\"ms\"}}}",
                "",
                "{\"metadata\":{\"request_start_ns\":300,\"request_end_ns\":310},\"error\":{\"code\":500,\"message\":\"boom\"}}",
                "{\"metrics\":{\"request_latency\":{\"value\":7}},\"metadata\":{\"request_start_ns\":400,"
                        + "\"request_end_ns\":480},\"error\":null}",
                "{\"metrics\":{\"request_latency\":{\"value\":99}},\"metadata\":{\"request_start_ns\":5"),
                StandardCharsets.UTF_8);
        final RecordScan scan = RecordScan.of(file);
        assertThat(scan.latencies()).containsExactly(12.25, 7.0);
        assertThat(scan.starts()).containsExactly(100L, 400L);
        assertThat(scan.ends()).containsExactly(250L, 480L);
    }

    @Test
    void aMissingFileIsEmpty() {
        assertThat(RecordScan.of(dir.resolve("none.jsonl")).latencies()).isEmpty();
    }
}
