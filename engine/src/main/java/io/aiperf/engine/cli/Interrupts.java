package io.aiperf.engine.cli;

import io.aiperf.engine.run.CancellationToken;
import java.io.PrintStream;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C handling (reference §4.4): the first SIGINT cancels gracefully (stop sending, let in-flight requests
 * finish within the grace period, write partial results); the second exits at once with 130.
 */
final class Interrupts {
    private final SignalHandler previous;

    private Interrupts(final SignalHandler previous) {
        this.previous = previous;
    }

    static Interrupts install(final CancellationToken token, final PrintStream err) {
        SignalHandler prev = null;
        try {
            prev = Signal.handle(new Signal("INT"), sig -> {
                if (token.isCancelled()) {
                    Runtime.getRuntime().halt(130);
                }
                token.cancel();
                err.println();
                err.println("Cancelling: waiting for in-flight requests, then writing partial results. "
                        + "Press Ctrl+C again to force quit immediately.");
            });
        } catch (IllegalArgumentException e) {
            // no SIGINT on this platform; cancellation then only comes from the JVM shutting down
        }
        return new Interrupts(prev);
    }

    void uninstall() {
        if (previous != null) {
            Signal.handle(new Signal("INT"), previous);
        }
    }
}
