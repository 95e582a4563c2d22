package io.aiperf.engine.run;


import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.export.RecordsJsonlWriter;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.TransportHealth;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The record processor of a cell (AIPerf's architecture has several; one keeps up here): completed requests reach
 * it through a bounded queue, and on its own thread each one is tokenised, its JSONL line written at once, and only
 * its compact metrics folded into its phase's summary. The response text and arrival stamps go with it, so memory
 * grows with the requests in flight, never with the length of the run, and the exports are ready as soon as the
 * last response is. When the queue is full the I/O thread waits for room; each wait is counted.
 */
final class RecordProcessor {
    private static final int QUEUE_CAPACITY = 16_384;
    private static final int BATCH = 256;
    private static final long MIN_IDLE_NANOS = 250_000;
    private static final long MAX_IDLE_NANOS = 4_000_000;

    private final BlockingQueue<RequestRecord> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final boolean streaming;
    private final boolean serverTokens;
    private final boolean perChunkUsage;
    private final Tokenizer tokenizer;
    private final RecordsJsonlWriter jsonl;
    private final MetricsAccumulator profiling;
    private final MetricsAccumulator warmup;
    private final TransportHealthRecorder transport = new TransportHealthRecorder();
    private final AtomicLong queueFullWaits = new AtomicLong();
    private final AtomicLong lostRecords = new AtomicLong();
    private final Thread worker;
    private final Thread watcher;
    private final io.aiperf.engine.dataset.TokenizerWatchdog watchdog;
    /** Why the tokenizer was given up on (it went over its bound), or null. */
    private volatile String stuck;
    private volatile Runnable onStuck = () -> { };
    private static final long WATCH_NANOS = 100_000_000L;
    private volatile boolean closing;
    private boolean anyWarmup;
    private IOException writeFailure;

    /**
     * @param perChunkUsage ITL leaves out the first chunk's tokens by the server's per-chunk usage
     * @param running the tokenizer of the run, watched: its other users (multi-turn replies, later turns' templates)
     *                share its bound, and the watcher here stops the cell when any of them goes over it
     * @param jsonl where the profiling records' lines go
     * @param fixedSchedule the profiling phase replays a fixed schedule (its send lag is summarised)
     */
    RecordProcessor(final boolean streaming, final boolean serverTokens, final boolean perChunkUsage,
                    final Map<String, Double> slos, final io.aiperf.engine.dataset.TokenizerWatchdog running,
                    final RecordsJsonlWriter jsonl, final boolean fixedSchedule) {
        this.streaming = streaming;
        this.serverTokens = serverTokens;
        this.perChunkUsage = perChunkUsage;
        // Answers are counted with the run's watched tokenizer: a backtracking one stops the cell (see the watcher).
        this.watchdog = running;
        this.tokenizer = new io.aiperf.engine.dataset.MemoTokenizer(watchdog);
        this.jsonl = jsonl;
        this.profiling = new MetricsAccumulator(slos, fixedSchedule);
        this.warmup = new MetricsAccumulator(slos);
        this.worker = new Thread(this::work, "record-processor");
        this.worker.setDaemon(true);
        this.worker.start();
        this.watcher = new Thread(this::watch, "tokenizer-watch");
        this.watcher.setDaemon(true);
        this.watcher.start();
    }

    /** Where a tokenizer stuck on the answers is said at once (the cell's stop), besides {@link #finish}. */
    void onStuck(final Runnable action) {
        onStuck = action;
        if (stuck != null) {
            action.run();
        }
    }

    /**
     * Checks the tokenizer a few times a second, off the I/O threads: one stuck in native code (a regex that
     * backtracks on an answer) would otherwise fill the queue and stop every I/O thread, and the run with them.
     */
    private void watch() {
        while (worker.isAlive()) {
            final io.aiperf.engine.config.ConfigException over = watchdog.overrun("counting the answers' tokens");
            if (over != null) {
                stuck = over.reason();
                onStuck.run();
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(WATCH_NANOS);
        }
    }

    /** Takes a completed request; called on I/O threads. */
    void accept(final RequestRecord record) {
        if (queue.offer(record)) {
            return;
        }
        if (stuck != null) {
            lostRecords.incrementAndGet(); // nothing takes records any more: the I/O threads must not wait
            return;
        }
        queueFullWaits.incrementAndGet();
        boolean interrupted = false;
        while (true) {
            try {
                if (queue.offer(record, WATCH_NANOS, java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    break;
                }
                if (stuck != null) {
                    lostRecords.incrementAndGet();
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true; // the record must not be lost; the interrupt is kept for the caller
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void work() {
        // Records are taken in batches: one lock of the queue for up to BATCH records instead of one per record,
        // which the I/O thread's offers would otherwise contend with at every record.
        final java.util.ArrayList<RequestRecord> batch = new java.util.ArrayList<>(BATCH);
        long idleNanos = 0;
        while (true) {
            queue.drainTo(batch, BATCH);
            if (batch.isEmpty()) {
                if (closing && queue.isEmpty()) {
                    return;
                }
                // Sleeps instead of waiting on the queue: an I/O thread handing over a record then never has to
                // wake this thread (a futex call per request at tens of thousands of requests per second). Records
                // are processed at most a few milliseconds late, which nothing waits on; the shortest sleep is long
                // enough for a batch to gather (at 20,000 requests/s, 5), so the sleeps cost less than the records.
                idleNanos = Math.min(Math.max(idleNanos * 2, MIN_IDLE_NANOS), MAX_IDLE_NANOS);
                java.util.concurrent.locks.LockSupport.parkNanos(idleNanos);
                if (Thread.interrupted()) {
                    return;
                }
                continue;
            }
            // Halved, not reset: at a few hundred requests a second the sleeps stay near the gap between records,
            // one or two wake-ups a record instead of a climb from the shortest sleep after each one.
            idleNanos /= 2;
            for (int i = 0; i < batch.size(); i++) {
                processSafely(batch.get(i));
            }
            batch.clear();
        }
    }

    private void processSafely(final RequestRecord r) {
        try {
            process(r);
        } catch (RuntimeException e) {
            // One record that cannot be processed is a failed request, never a dead processor (which would
            // stop every I/O thread at the full queue).
            try {
                (r.profiling() ? profiling : warmup).add(RecordMetrics.failed(r,
                        new io.aiperf.engine.record.ErrorDetails(null, "RecordProcessingError", String.valueOf(e))));
            } catch (RuntimeException again) {
                lostRecords.incrementAndGet(); // counted, so the summary can say the metrics are incomplete
            }
        }
    }

    private void process(final RequestRecord r) {
        final RecordMetrics m = RecordMetrics.of(r, streaming, serverTokens, perChunkUsage, tokenizer);
        if (!r.profiling()) {
            anyWarmup = true;
            warmup.add(m);
            if (writeFailure == null) {
                try {
                    jsonl.rehearse(r, m); // compiles the records file's code before the profiling phase
                } catch (IOException e) {
                    // nothing was to be written: the profiling phase meets any real write failure itself
                }
            }
            return;
        }
        profiling.add(m);
        transport.add(r);
        if (writeFailure == null) {
            try {
                jsonl.write(r, m);
            } catch (IOException e) {
                writeFailure = e; // the summary is still computed; the cell reports the export as not written
            }
        }
    }

    /** What the processor produced, once every accepted record is processed. */
    record Result(MetricsSummary profiling, MetricsSummary warmup, TransportHealth transport, long queueFullWaits,
                  IOException writeFailure, long lostRecords) {
    }

    /**
     * Processes what is still queued, stops the worker, and returns the summaries.
     *
     * @throws CellStopped when the tokenizer went over its bound on the answers: the worker is left where it is stuck
     */
    Result finish() throws InterruptedException, CellStopped {
        closing = true;
        while (worker.isAlive() && stuck == null) {
            worker.join(WATCH_NANOS / 1_000_000);
        }
        if (stuck != null) {
            throw new CellStopped(CellStatus.BAD_INPUT, io.aiperf.engine.dataset.TokenizerWatchdog.FIELD + ": "
                    + stuck, 0);
        }
        try {
            return new Result(profiling.summary(), anyWarmup ? warmup.summary() : null, transport.health(),
                    queueFullWaits.get(), writeFailure, lostRecords.get());
        } finally {
            profiling.close();
            warmup.close();
        }
    }
}
