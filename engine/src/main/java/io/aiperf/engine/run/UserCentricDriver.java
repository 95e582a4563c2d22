package io.aiperf.engine.run;

import io.aiperf.engine.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * AIPerf's user-centric mode ({@code --user-centric-rate Q --num-users N}): N simulated users, each holding one
 * conversation at a time and sending its next turn one turn gap (N / Q) after its previous send, or when the previous
 * turn finished if that was later; a user whose conversation ended starts a new one on the same cadence. The users
 * start 1 / Q apart, so the whole phase sends about Q requests per second from the start rather than N at once. The
 * turns within a conversation are paced by {@link PhaseRunner} with the same gap. With {@code --concurrency} below N,
 * only that many users hold a conversation at once (the others starve, as upstream warns). Thread-safe.
 */
final class UserCentricDriver implements LoadDriver {
    private final SendPort port;
    private final int activeUsers;
    private final long gapNanos;
    private final long staggerNanos;
    private final Clock clock;
    private final ScheduledExecutorService timer;

    /**
     * @param users N, the simulated users
     * @param rate Q, requests per second over all users
     * @param concurrency the ceiling on users holding a conversation at once, or null for all N
     */
    UserCentricDriver(final SendPort port, final int users, final double rate, final Integer concurrency,
                      final Clock clock, final String phaseName) {
        this.port = port;
        this.activeUsers = concurrency == null ? users : Math.min(users, concurrency);
        this.gapNanos = turnGapNanos(users, rate);
        this.staggerNanos = (long) (1e9 / rate);
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "users-" + phaseName);
            t.setDaemon(true);
            return t;
        });
    }

    /** The time between two sends of one user: N / Q seconds. */
    static long turnGapNanos(final int users, final double rate) {
        return (long) (users / rate * 1e9);
    }

    @Override
    public void start(final long phaseStartNanos) {
        for (int i = 0; i < activeUsers; i++) {
            startConversationAt(phaseStartNanos + i * staggerNanos);
        }
    }

    @Override
    public void onComplete() {
        startConversationAt(clock.nanoTime());
    }

    /** A user's conversation ended: it starts the next one a turn gap after its last send, or now if that passed. */
    @Override
    public void onSessionEnd(final long lastSendNanos) {
        startConversationAt(lastSendNanos < 0 ? clock.nanoTime() : lastSendNanos + gapNanos);
    }

    private void startConversationAt(final long dueNanos) {
        if (port.mustStop()) {
            return;
        }
        try {
            timer.schedule(() -> {
                final int index = port.claim();
                if (index >= 0) {
                    port.send(index, dueNanos);
                }
            }, Math.max(0, dueNanos - clock.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the phase is over
        }
    }

    @Override
    public void join() {
        timer.shutdownNow(); // conversations not yet started are not started: sending has ended
    }
}
