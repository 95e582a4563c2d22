package io.aiperf.engine.run;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Progress on stderr: a live line redrawn twice a second on a terminal, a plain line every five seconds
 * otherwise (logs, CI). Reads the runners' counters and their HdrHistogram interval latency; never touches
 * the request path.
 */
final class ProgressReporter implements AutoCloseable {
    private final PrintStream err;
    private final boolean live;
    private final Supplier<List<Phase>> phases;
    private final Thread thread;
    private volatile boolean stopped;

    ProgressReporter(final PrintStream err, final boolean live, final Supplier<List<Phase>> phases) {
        this.err = err;
        this.live = live;
        this.phases = phases;
        this.thread = new Thread(this::loop, "progress");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        final long periodMillis = live ? 500 : 5000;
        while (!stopped) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            if (!stopped) {
                print();
            }
        }
    }

    private void print() {
        final List<Phase> started = phases.get();
        if (started.isEmpty()) {
            return;
        }
        final Phase r = started.get(started.size() - 1);
        final Histogram h = r.intervalLatencyMicros();
        final String latency = h.getTotalCount() == 0 ? "-" : String.format(Locale.ROOT, "%.1f ms",
                h.getValueAtPercentile(50) / 1000.0);
        final String total = r.phase().requests() != null ? "/" + r.phase().requests() : "";
        final String line = String.format(Locale.ROOT, "[%s] sent %d%s, done %d, errors %d, in flight %d, p50 latency %s",
                r.phase().name(), r.issuedCount(), total, r.completedCount(), r.errorCount(), r.inFlightCount(), latency);
        if (live) {
            err.print(line + "   \r"); // the cursor waits at the start, for the next update or the clear
        } else {
            err.println(line);
        }
        err.flush();
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        if (live) {
            err.print("\r" + " ".repeat(100) + "\r");
            err.flush();
        }
    }
}
