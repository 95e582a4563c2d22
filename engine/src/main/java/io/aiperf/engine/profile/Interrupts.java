package io.aiperf.engine.profile;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.time.CancellationToken;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C handling (AIPerf's timing and load docs): the first SIGINT cancels gracefully (stop sending, let in-flight requests
 * finish within the grace period, write partial results); the second exits at once with 130. SIGTERM, which CI
 * systems and {@code timeout} send to stop a job, is treated the same way, so a stopped job keeps its results; its
 * exit code is 143.
 */
public final class Interrupts {
    private static final String[] SIGNALS = {"INT", "TERM"};
    private final Map<String, SignalHandler> previous;
    private final java.util.concurrent.atomic.AtomicBoolean terminated;

    private Interrupts(final Map<String, SignalHandler> previous, final java.util.concurrent.atomic.AtomicBoolean terminated) {
        this.previous = previous;
        this.terminated = terminated;
    }

    /** Whether the cancel came from SIGTERM (the exit code is then 143, not 130). */
    public boolean terminated() {
        return terminated.get();
    }

    public static Interrupts install(final CancellationToken token, final PrintStream err) {
        final java.util.concurrent.atomic.AtomicBoolean terminated = new java.util.concurrent.atomic.AtomicBoolean();
        final SignalHandler handler = sig -> {
            if (token.isCancelled()) {
                Runtime.getRuntime().halt(sig.getName().equals("TERM") ? ExitCode.TERMINATED : ExitCode.CANCELLED);
            }
            if (sig.getName().equals("TERM")) {
                terminated.set(true);
                token.terminate();
            } else {
                token.cancel();
            }
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
        return new Interrupts(prev, terminated);
    }

    public void uninstall() {
        previous.forEach((name, handler) -> Signal.handle(new Signal(name), handler));
    }
}
