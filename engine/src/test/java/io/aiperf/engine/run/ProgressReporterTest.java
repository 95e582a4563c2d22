package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.PhaseConfig;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The progress line says how long the phase has run and how long it has left. */
class ProgressReporterTest {
    private static final long SECOND = 1_000_000_000L;

    /** A phase started at second 100 that has sent {@code sent} and finished {@code done}. */
    private static Phase phase(final String yaml, final long sent, final long done) {
        final PhaseConfig config = PhaseFixture.of(yaml).config().phases().get(0);
        return new Phase() {
            @Override
            public PhaseConfig phase() {
                return config;
            }

            @Override
            public void startSending() {
            }

            @Override
            public void awaitSendComplete() {
            }

            @Override
            public PhaseResult awaitDrain() {
                return null;
            }

            @Override
            public long startedNanos() {
                return 100 * SECOND;
            }

            @Override
            public long issuedCount() {
                return sent;
            }

            @Override
            public long completedCount() {
                return done;
            }

            @Override
            public long errorCount() {
                return 0;
            }

            @Override
            public int inFlightCount() {
                return (int) (sent - done);
            }

            @Override
            public Histogram intervalLatencyMicros() {
                return new Histogram(3);
            }
        };
    }

    @Test
    void aRequestCountEstimatesTheRestFromThePaceSoFar() {
        // 25 of 100 done in 10 s: 30 s to go.
        final String line = ProgressReporter.line(phase("{name: profiling, concurrency: 4, requests: 100}", 29, 25),
                110 * SECOND);
        assertThat(line).startsWith("[profiling] 10s elapsed, ETA 30s: sent 29/100, done 25");
    }

    @Test
    void aDurationCountsDownItsRest() {
        final String line = ProgressReporter.line(phase("{name: profiling, concurrency: 4, duration: 300}", 9, 5),
                (100 + 75) * SECOND);
        assertThat(line).startsWith("[profiling] 1m15s elapsed, ETA 3m45s: sent 9,");
    }

    @Test
    void nothingDoneYetHasNoEstimate() {
        assertThat(ProgressReporter.line(phase("{name: profiling, concurrency: 4, requests: 100}", 4, 0),
                101 * SECOND)).contains("1s elapsed, ETA -:");
        assertThat(ProgressReporter.duration(3 * 3600 + 125)).isEqualTo("3h02m");
    }
}
