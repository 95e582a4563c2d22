package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.dataset.WordTokenizer;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.record.Usage;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The per-request formulas of AIPerf's metrics reference on hand-computed values: a request written at 1 ms whose
 * four chunks arrive at 21, 31, 46 and 51 ms, the first carrying reasoning and the rest answer text.
 */
class RecordMetricsTest {
    private static final long MS = 1_000_000L;
    /** One token per space-separated word, so the counts below are plain to see. */
    private static final Tokenizer WORDS = new WordTokenizer();

    private static RequestRecord record(final long[] chunks, final Usage usage, final boolean streamed) {
        final ResponseData response = new ResponseData(1 * MS, 2 * MS, chunks, chunks.length, 1, "a b c", "r1 r2",
                usage, null, 0, TransportTimes.NONE, streamed);
        return new RequestRecord("profiling", true, 0, "id", "c", "conv", 0, "m", 0L, 12, 64, response, false, -1,
                null, -1, 0);
    }

    private static final long[] CHUNKS = {21 * MS, 31 * MS, 46 * MS, 51 * MS};

    @Test
    void streamedRequestTimesAndCountsFromTheChunkStamps() {
        final RecordMetrics m = RecordMetrics.of(record(CHUNKS, null, true), true, false, WORDS);
        assertThat(m.valid()).isTrue();
        assertThat(m.latencyNanos()).isEqualTo(50.0 * MS);   // last chunk - start
        assertThat(m.ttftNanos()).isEqualTo(20.0 * MS);      // first chunk - start
        assertThat(m.ttstNanos()).isEqualTo(10.0 * MS);      // second chunk - first
        assertThat(m.ttfoNanos()).isEqualTo(30.0 * MS);      // first answer-text chunk (index 1) - start
        assertThat(m.iclNanos()).containsExactly(10.0 * MS, 15.0 * MS, 5.0 * MS);
        // the reasoning split: 3 answer tokens and 2 reasoning tokens make an OSL of 5
        assertThat(m.outputTokens()).isEqualTo(3);
        assertThat(m.reasoningTokens()).isEqualTo(2);
        assertThat(m.osl()).isEqualTo(5);
        assertThat(m.clientOutputTokens()).isEqualTo(5);
        // ITL = (latency - TTFT) / (OSL - 1) = 30 ms / 4
        assertThat(m.itlNanos()).isEqualTo(7.5 * MS);
        assertThat(m.outputTokensPerSecondPerUser()).isCloseTo(1e9 / (7.5 * MS), Offset.offset(1e-9));
        assertThat(m.isl()).isEqualTo(12);
        assertThat(m.requestedOsl()).isEqualTo(64);
        assertThat(m.serverOutputTokens()).isEqualTo(-1);
        assertThat(m.scheduleDelayNanos()).isNaN(); // a closed loop has no intended start
    }

    @Test
    void serverCountsReplaceTheClientsAndSplitReasoningOutOfTheCompletion() {
        final RecordMetrics m = RecordMetrics.of(record(CHUNKS, new Usage(40, 9, 49, 2), true), true, true, WORDS);
        assertThat(m.isl()).isEqualTo(40);
        assertThat(m.outputTokens()).isEqualTo(7); // completion 9 - reasoning 2
        assertThat(m.reasoningTokens()).isEqualTo(2);
        assertThat(m.osl()).isEqualTo(9);
        assertThat(m.itlNanos()).isEqualTo(30.0 * MS / 8);
        assertThat(m.clientOutputTokens()).isEqualTo(-1);
        assertThat(m.serverOutputTokens()).isEqualTo(9);
        assertThat(m.usageTotalTokens()).isEqualTo(49);
    }

    @Test
    void aNegativeServerCountFailsTheRecordInsteadOfDroppingItsTokens() {
        final RecordMetrics m = RecordMetrics.of(record(CHUNKS, new Usage(40, -1, 39, null), true), true, true, WORDS);
        assertThat(m.valid()).isFalse();
        assertThat(m.error().message()).contains("completion_tokens -1");
    }

    @Test
    void chunksOutOfOrderSuppressTheInterChunkLatenciesOnly() {
        final RecordMetrics m = RecordMetrics.of(record(new long[] {21 * MS, 31 * MS, 26 * MS, 51 * MS}, null, true),
                true, false, WORDS);
        assertThat(m.iclNanos()).isNull();
        assertThat(m.ttftNanos()).isEqualTo(20.0 * MS);
        assertThat(m.itlNanos()).isEqualTo(7.5 * MS);
    }

    @Test
    void aJsonAnswerOrAnUnstreamedRequestHasNoStreamingMetrics() {
        for (final RecordMetrics m : new RecordMetrics[] {
            RecordMetrics.of(record(CHUNKS, null, false), true, false, WORDS),
            RecordMetrics.of(record(CHUNKS, null, true), false, false, WORDS)}) {
            assertThat(m.latencyNanos()).isEqualTo(50.0 * MS);
            assertThat(m.ttftNanos()).isNaN();
            assertThat(m.ttstNanos()).isNaN();
            assertThat(m.itlNanos()).isNaN();
            assertThat(m.iclNanos()).isNull();
            assertThat(m.osl()).isEqualTo(5);
        }
    }
}
