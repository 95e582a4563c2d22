package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up rule: without a warmup, the requests sent before the first answer are left out. */
class RequestSamplesTest {
    @TempDir
    Path tmp;

    private static String record(final long start, final long end, final double ttft, final String extra) {
        return "{\"metadata\":{\"request_start_ns\":" + start + ",\"request_end_ns\":" + end
                + ",\"benchmark_phase\":\"profiling\"},\"metrics\":{\"time_to_first_token\":{\"value\":" + ttft
                + ",\"unit\":\"ms\"}}" + extra + "}";
    }

    @Test
    void theFirstWaveIsLeftOutUnlessTheRunWarmedUp() throws Exception {
        final Path file = tmp.resolve("profile_export.jsonl");
        Files.writeString(file, String.join("\n",
                record(0, 1000, 900, ""), record(10, 1010, 950, ""),          // the first wave: sent before 1000
                record(1000, 1030, 20, ""), record(1010, 1040, 21, ""),
                record(1030, 1050, 22, ",\"error\":{\"code\":500}"),         // an error: no value to compare
                "{\"metadata\":{\"request_start_ns\":5,\"request_end_ns\":6,\"benchmark_phase\":\"warmup\"}}",
                "") + "\n");
        final RequestSamples cold = RequestSamples.read(file, false);
        assertThat(cold.excluded()).isEqualTo(2);
        assertThat(cold.values("time_to_first_token")).containsExactly(20, 21);
        final RequestSamples warm = RequestSamples.read(file, true);
        assertThat(warm.excluded()).isZero();
        assertThat(warm.values("time_to_first_token")).containsExactly(900, 950, 20, 21);
        assertThat(warm.values("inter_token_latency")).isEmpty();
        assertThat(RequestSamples.read(tmp.resolve("missing.jsonl"), false)).isNull();
    }
}
