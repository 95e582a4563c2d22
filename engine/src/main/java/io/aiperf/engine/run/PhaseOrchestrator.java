package io.aiperf.engine.run;

import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.hooks.HookException;
import io.aiperf.engine.hooks.ProfilerSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Runs the phases of a cell in order and owns the profiler lifecycle (the control-hooks contract in src-docs/control-hooks.md and AIPerf's timing and load docs). A profiling
 * phase acquires the profiler before it sends and releases it after it drains; warmup never touches it. When
 * the next phase is seamless, it starts as soon as this one stops sending, and this phase drains (and
 * releases the profiler) in the background. A failing phase still releases the profiler.
 */
public final class PhaseOrchestrator {
    private final List<PhaseConfig> phases;
    private final Function<PhaseConfig, Phase> factory;
    private final ProfilerSession profiler;
    private final ProfilingWindow window;
    private final CancellationToken cancellation;
    private final List<String> warnings = new ArrayList<>();
    private final List<Phase> started = new ArrayList<>();

    public PhaseOrchestrator(final List<PhaseConfig> phases, final Function<PhaseConfig, Phase> factory,
                             final ProfilerSession profiler, final CancellationToken cancellation) {
        this(phases, factory, profiler, ProfilingWindow.NONE, cancellation);
    }

    /** @param window told when each profiling phase starts and has drained (the server metrics scraper) */
    public PhaseOrchestrator(final List<PhaseConfig> phases, final Function<PhaseConfig, Phase> factory,
                             final ProfilerSession profiler, final ProfilingWindow window,
                             final CancellationToken cancellation) {
        this.phases = phases;
        this.factory = factory;
        this.profiler = profiler;
        this.window = window;
        this.cancellation = cancellation;
    }

    /** Phases started so far (for progress reporting). */
    public synchronized List<Phase> startedPhases() {
        return List.copyOf(started);
    }

    /** Profiler stop warnings collected while running. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * @return one result per phase that ran, in phase order
     * @throws HookException when a profiler start failed (that phase never sent)
     */
    public List<PhaseResult> run() throws HookException, InterruptedException {
        final List<CompletableFuture<PhaseResult>> results = new ArrayList<>();
        try {
            for (int i = 0; i < phases.size() && !cancellation.isCancelled(); i++) {
                final PhaseConfig config = phases.get(i);
                final boolean owner = config.kind() == PhaseKind.PROFILING;
                if (owner) {
                    profiler.acquire(); // does nothing when the profiler hook is off
                    window.opened();
                }
                final Phase phase;
                try {
                    phase = factory.apply(config);
                    synchronized (this) {
                        started.add(phase);
                    }
                    phase.startSending();
                    phase.awaitSendComplete();
                } catch (RuntimeException | InterruptedException e) {
                    releaseIfOwner(owner);
                    throw e;
                }
                final boolean nextSeamless = i + 1 < phases.size() && phases.get(i + 1).seamless();
                final CompletableFuture<PhaseResult> drained = new CompletableFuture<>();
                results.add(drained);
                if (nextSeamless && !cancellation.isCancelled()) {
                    final Thread t = new Thread(() -> drain(phase, owner, drained), "drain-" + config.name());
                    t.setDaemon(true);
                    t.start();
                } else {
                    drain(phase, owner, drained);
                    awaitAll(results);
                }
            }
            return awaitAll(results);
        } finally {
            for (final CompletableFuture<PhaseResult> f : results) {
                f.exceptionally(e -> null).join(); // never leave a drain (and its profiler stop) behind
            }
        }
    }

    /** Drains the phase, stops the profiler if this phase owns it, and only then reports the phase done. */
    private void drain(final Phase phase, final boolean owner, final CompletableFuture<PhaseResult> into) {
        PhaseResult result = null;
        Throwable failure = null;
        try {
            result = phase.awaitDrain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e;
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            releaseIfOwner(owner);
        }
        if (failure != null) {
            into.completeExceptionally(failure);
        } else {
            into.complete(result);
        }
    }

    private void releaseIfOwner(final boolean owner) {
        if (owner) {
            window.closed();
            final String warning = profiler.release();
            if (warning != null) {
                synchronized (this) {
                    warnings.add(warning);
                }
            }
        }
    }

    private static List<PhaseResult> awaitAll(final List<CompletableFuture<PhaseResult>> futures)
            throws InterruptedException {
        final List<PhaseResult> out = new ArrayList<>();
        for (final CompletableFuture<PhaseResult> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
        return out;
    }
}
