package io.aiperf.engine.run;

import io.aiperf.engine.time.Clock;

/**
 * A whole run's time left (a sweep, trials, a comparison, a capacity search), from the pace of the cells done so
 * far: the time since the run began over the cells done, times the cells left. The pace counts cooldowns too, as
 * they are part of the wait. Not thread-safe: the runner that starts the cells owns it.
 */
public final class RunEta {
    private final Clock clock;
    private final long startNanos;

    public RunEta(final Clock clock) {
        this.clock = clock;
        this.startNanos = clock.nanoTime();
    }

    /**
     * The words to add to the line that starts the next cell: {@code ", run ETA 2m10s"}, or "" while no cell is
     * done (there is no pace yet).
     *
     * @param done the cells done
     * @param left the cells still to run, the one about to start included
     */
    public String before(final int done, final int left) {
        return estimate(done, left, "run ETA ");
    }

    /**
     * As {@link #before}, for a run whose length is only bounded (a capacity search stops when it converges, at the
     * latest when its probe budget is spent): {@code ", run ETA up to 2m10s"}.
     */
    public String upTo(final int done, final int mostLeft) {
        return estimate(done, mostLeft, "run ETA up to ");
    }

    private String estimate(final int done, final int left, final String words) {
        if (done <= 0 || left <= 0) {
            return "";
        }
        final double elapsed = Math.max(0, (clock.nanoTime() - startNanos) / 1e9);
        return ", " + words + ProgressReporter.duration(elapsed / done * left);
    }
}
