package io.aiperf.engine.client;

import io.aiperf.engine.dataset.MemoTokenizer;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.export.RecordsJsonlWriter;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the record processor does for each finished request of a streamed run (64 events): the record's metrics (the
 * answer counted by the builtin tokenizer behind the memo of repeated answers, as in a run), the run's statistics, and
 * its {@code profile_export.jsonl} line (to a discarding stream). Scored per request; {@code nonStreamedRecord} is
 * the same for P1's non-streamed answer, and {@code nonStreamedLine} its line alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecordPathBenchmark {
    private final Tokenizer tokenizer = new MemoTokenizer(Tokenizer.builtin());
    private RequestRecord record;
    private RequestRecord answer;
    private MetricsAccumulator metrics;
    private RecordsJsonlWriter jsonl;
    private RecordMetrics answerMetrics;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        final ResponsePathBenchmark path = new ResponsePathBenchmark();
        path.setUp();
        final ResponseData response = path.streamedAnswer();
        record = new RequestRecord("profiling", true, 0, "6f1c3bb0-0d0e-4a39-9a55-3f0a3c1c2d4e",
                "0b8f8f7e-2a52-4c3f-8d57-5a4f1f2e9c11", "conv-1", 0, "m", System.currentTimeMillis() * 1_000_000L,
                550, 64, response, false, -1, null, -1, 0);
        answer = new RequestRecord("profiling", true, 0, "6f1c3bb0-0d0e-4a39-9a55-3f0a3c1c2d4e",
                "0b8f8f7e-2a52-4c3f-8d57-5a4f1f2e9c11", "b0bedfef-8c9e-a7b9-1817-e986a6420f84", 0, "m",
                System.currentTimeMillis() * 1_000_000L, 16, 16, path.nonStreamedAnswer(), false, -1, null, -1, 0);
        jsonl = new RecordsJsonlWriter(OutputStream.nullOutputStream(), new WallClock(System::nanoTime));
        answerMetrics = RecordMetrics.of(answer, false, false, tokenizer);
    }

    /** A fresh accumulator per iteration, so its distributions do not grow across the whole trial. */
    @Setup(Level.Iteration)
    public void freshStatistics() {
        metrics = new MetricsAccumulator(Map.of());
    }

    @TearDown(Level.Iteration)
    public void closeStatistics() {
        metrics.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        jsonl.close();
    }

    /** P1's record: a non-streamed chat completion with the server's usage, counted by the builtin tokenizer. */
    @Benchmark
    public RecordMetrics nonStreamedRecord() throws IOException {
        return process(answer, false);
    }

    /** P1's {@code profile_export.jsonl} line alone, its metrics computed once. */
    @Benchmark
    public void nonStreamedLine() throws IOException {
        jsonl.write(answer, answerMetrics);
    }

    @Benchmark
    public RecordMetrics record() throws IOException {
        return process(record, true);
    }

    /** What the record processor does with one finished request. */
    private RecordMetrics process(final RequestRecord r, final boolean streaming) throws IOException {
        final RecordMetrics m = RecordMetrics.of(r, streaming, false, tokenizer);
        metrics.add(m);
        jsonl.write(r, m);
        return m;
    }
}
