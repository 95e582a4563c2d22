package io.aiperf.engine.cli;

import io.aiperf.engine.time.CancellationToken;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C handling (reference §4.4): the first SIGINT cancels gracefully (stop sending, let in-flight requests
 * finish within the grace period, write partial results); the second exits at once with 130. SIGTERM, which CI
 * systems and {@code timeout} send to stop a job, is treated the same way, so a stopped job keeps its results.
 */
final class Interrupts {
    private static final String[] SIGNALS = {"INT", "TERM"};
    private final Map<String, SignalHandler> previous;

    private Interrupts(final Map<String, SignalHandler> previous) {
        this.previous = previous;
    }

    static Interrupts install(final CancellationToken token, final PrintStream err) {
        final SignalHandler handler = sig -> {
            if (token.isCancelled()) {
                Runtime.getRuntime().halt(130);
            }
            token.cancel();
            err.println();
            err.println("Cancelling (SIG" + sig.getName() + "): waiting for in-flight requests, then writing partial "
                    + "results. Press Ctrl+C again to force quit immediately.");
        };
        final Map<String, SignalHandler> prev = new LinkedHashMap<>();
        for (final String name : SIGNALS) {
            try {
                prev.put(name, Signal.handle(new Signal(name), handler));
            } catch (IllegalArgumentException e) {
                // not on this platform; cancellation then only comes from the JVM shutting down
            }
        }
        return new Interrupts(prev);
    }

    void uninstall() {
        previous.forEach((name, handler) -> Signal.handle(new Signal(name), handler));
    }
}
