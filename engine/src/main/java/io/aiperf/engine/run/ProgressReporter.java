package io.aiperf.engine.run;

import io.aiperf.engine.time.Clock;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Progress on stderr: a live line redrawn twice a second on a terminal, a plain line every five seconds
 * otherwise (logs, CI), none when the console is quiet. Each line has the phase's elapsed time and, for a request
 * count or a duration, an ETA. Reads the runners' counters and their HdrHistogram interval latency; never touches
 * the request path.
 */
final class ProgressReporter implements AutoCloseable {
    private final PrintStream err;
    private final boolean live;
    private final boolean enabled;
    private final Clock clock;
    private final Supplier<List<Phase>> phases;
    private final Thread thread;
    private volatile boolean stopped;

    /** @param enabled false for a quiet console ({@code --ui none}, {@code --quiet}): nothing is printed */
    ProgressReporter(final PrintStream err, final boolean live, final boolean enabled, final Clock clock,
                     final Supplier<List<Phase>> phases) {
        this.err = err;
        this.live = live;
        this.enabled = enabled;
        this.clock = clock;
        this.phases = phases;
        this.thread = new Thread(this::loop, "progress");
        this.thread.setDaemon(true);
    }

    void start() {
        if (enabled) {
            thread.start();
        }
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
        final String line = line(started.get(started.size() - 1), clock.nanoTime());
        if (live) {
            err.print(line + "   \r"); // the cursor waits at the start, for the next update or the clear
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** One progress line for the phase at {@code nowNanos} on the run's clock. */
    static String line(final Phase r, final long nowNanos) {
        final Histogram h = r.intervalLatencyMicros();
        final String latency = h.getTotalCount() == 0 ? "-" : String.format(Locale.ROOT, "%.1f ms",
                h.getValueAtPercentile(50) / 1000.0);
        final Integer requests = r.phase().requests();
        final String total = requests != null ? "/" + requests : "";
        final double elapsed = r.startedNanos() == 0 ? 0 : Math.max(0, (nowNanos - r.startedNanos()) / 1e9);
        return String.format(Locale.ROOT, "[%s] %s elapsed, ETA %s: sent %d%s, done %d, errors %d, in flight %d, "
                        + "p50 latency %s", r.phase().name(), duration(elapsed), eta(r, elapsed), r.issuedCount(), total,
                r.completedCount(), r.errorCount(), r.inFlightCount(), latency);
    }

    /** Time left: the rest of a duration, or the pace so far over the requests left; "-" when neither is known. */
    private static String eta(final Phase r, final double elapsed) {
        final Double duration = r.phase().durationSeconds();
        final Integer requests = r.phase().requests();
        if (duration != null) {
            return duration(Math.max(0, duration - elapsed));
        }
        final long done = r.completedCount();
        if (requests != null && done > 0 && elapsed > 0) {
            return duration(Math.max(0, elapsed * (requests - done) / done));
        }
        return "-";
    }

    /** 42s, 3m05s, 1h02m. */
    public static String duration(final double seconds) {
        final long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        if (live && enabled) {
            err.print("\r" + " ".repeat(120) + "\r");
            err.flush();
        }
    }
}
