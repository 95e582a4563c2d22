package io.aiperf.engine.run;

import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.OpenLoopPool;
import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.config.Shard;
import io.aiperf.engine.hooks.HookException;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.Environment;
import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.record.ShardRun;
import io.aiperf.engine.telemetry.GpuTelemetryFiles;
import io.aiperf.engine.telemetry.ServerMetricsCollector;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Parker;
import io.aiperf.engine.time.WallClock;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A cell's execution, on the injected clock: the client and its connections, the server's identity, the shard's
 * start, the phases with the profiler and the telemetry around the profiling window, and what the phases tallied.
 */
final class CellExecution {
    private static final int UNCAPPED_OPEN_LOOP_POOL = 32_768;
    private static final int PRECONNECT_WAVE = 1024;
    private static final int PRECONNECT_MAX = 65_536;

    private final BenchmarkConfig config;
    private final CellContext ctx;
    private final WallClock wall;
    private final ProbeClient probes;
    private ShardRun shardRun; // set once the shard's start is known

    /**
     * What the phases did.
     *
     * @param aborted why a phase aborted itself (its failed-request threshold), or null
     * @param windowConnects connections opened while a profiling window was open
     */
    record Executed(long sent, long abandoned, long maxLagNanos, Map<String, OpenLoopHealth> openLoop,
                    boolean cancelled, String aborted, double wakeupP99, Environment.Connection connection,
                    Environment.ServerIdentity server, long windowConnects) {
    }

    CellExecution(final BenchmarkConfig config, final CellContext ctx, final WallClock wall, final ProbeClient probes) {
        this.config = config;
        this.ctx = ctx;
        this.wall = wall;
        this.probes = probes;
    }

    /** How this shard started ({@code --start-at}, clock offset), or null for a whole cell or before the start. */
    ShardRun shardRun() {
        return shardRun;
    }

    Executed execute(final CellSetup.Prepared p) throws CellStopped, InterruptedException {
        final RecordProcessor processor = p.processor();
        final PhaseOrchestrator orchestrator;
        final Environment.ServerIdentity server;
        final List<PhaseResult> results;
        // The phases stop on the user's Ctrl-C and on their own failed-request threshold; only the former ends the run.
        final CancellationToken stop = new CancellationToken();
        processor.onStuck(stop::cancel); // a tokenizer stuck on the answers ends the phases at once
        double wakeupP99 = 0;
        Environment.Connection connection = Environment.Connection.UNKNOWN;
        // Connections opened while a profiling window was open, and the count when the current one opened.
        final long[] windowConnects = {0, 0};
        try (InferenceClient client = new InferenceClient(poolSize(), config.endpoint().timeoutSeconds(), ctx.clock(),
                config.limits(), config.endpoint().network(), config.endpoint().connectionReuse());
             CancellationToken.Registration userStop = ctx.cancellation().onCancel(stop::cancel)) {
            orchestrator = new PhaseOrchestrator(config.phases(),
                    phase -> new PhaseRunner(phase, p.source(), client, ctx.clock(), Parker.SYSTEM, wall,
                            stop, p.seed() + phase.name().hashCode(), processor::accept,
                            config.dataset().effectiveSampling(), p.tokenizer()),
                    p.profiler(), window(client, p.scraper(), p.gpu(), windowConnects), stop);
            client.onWarning(ctx.log()::warning);
            server = ServerProbe.identify(client, config.endpoint().urls().get(0), p.origins().get(0),
                    p.source().headers());
            if (config.limits().preconnect()) {
                preconnect(client);
            }
            p.warmup().await();

            try (ProgressReporter progress = new ProgressReporter(ctx.err(), ctx.liveProgress(), showsProgress(),
                    ctx.clock(), orchestrator::startedPhases); WakeupSampler wakeups = new WakeupSampler().start()) {
                if (!awaitShardStart(p.origins().get(0))) {
                    processor.finish();
                    p.recordFiles().abort();
                    throw new CellStopped(CellStatus.CANCELLED, "cancelled by the user while waiting for --start-at",
                            0);
                }
                progress.start();
                results = orchestrator.run();
                wakeupP99 = wakeups.p99Millis();
                connection = client.connection();
            } catch (HookException e) {
                processor.finish();
                p.recordFiles().abort();
                final long sent = orchestrator.startedPhases().stream().mapToLong(Phase::issuedCount).sum();
                throw ctx.cancellation().isCancelled()
                        ? new CellStopped(CellStatus.CANCELLED, "cancelled by the user during server_profiler start",
                        sent)
                        : new CellStopped(CellStatus.FAILED, "server_profiler start failed: " + e.getMessage(), sent);
            }
        }
        orchestrator.warnings().forEach(w -> ctx.log().warning(w));
        final String aborted = orchestrator.startedPhases().stream().map(Phase::abortReason)
                .filter(Objects::nonNull).findFirst().orElse(null);
        return tally(results, aborted, wakeupP99, connection, server, windowConnects[0]);
    }

    /** The profiling window: sizes an open loop's pool, counts its connects, starts and drains the telemetry. */
    private ProfilingWindow window(final InferenceClient client, final ServerMetricsCollector scraper,
                                   final GpuTelemetryFiles gpu, final long[] windowConnects) {
        final Iterator<PhaseConfig> profilingPhases = config.phases().stream()
                .filter(p -> p.kind() == PhaseKind.PROFILING).iterator();
        return new ProfilingWindow() {
            @Override
            public void opened() {
                final PhaseConfig phase = profilingPhases.hasNext() ? profilingPhases.next() : null;
                if (phase != null && phase.rate() != null && config.limits().preconnect()) {
                    sizeOpenLoopPool(client, phase);
                }
                windowConnects[1] = client.connectsOpened();
                if (scraper != null) {
                    scraper.phaseStarted();
                }
                gpu.phaseStarted();
            }

            @Override
            public void closed() {
                windowConnects[0] += client.connectsOpened() - windowConnects[1];
                if (scraper != null) {
                    scraper.phaseDrained();
                }
                gpu.phaseDrained();
            }
        };
    }

    /** Sums the phases' results, and warns of open loops that fell behind and of abandoned requests. */
    private Executed tally(final List<PhaseResult> results, final String aborted, final double wakeupP99,
                           final Environment.Connection connection, final Environment.ServerIdentity server,
                           final long windowConnects) {
        long sent = 0;
        long abandoned = 0;
        long maxLagNanos = 0;
        final Map<String, OpenLoopHealth> openLoop = new LinkedHashMap<>();
        boolean cancelled = ctx.cancellation().isCancelled();
        for (final PhaseResult r : results) {
            abandoned += r.abandoned();
            if (r.openLoop() != null && r.phase().kind() == PhaseKind.PROFILING) {
                openLoop.put(r.phase().name(), r.openLoop());
                final String behind = r.openLoop().warning();
                if (behind != null) {
                    ctx.log().warning("phase " + r.phase().name() + ": " + r.openLoop().brief(),
                            "phase " + r.phase().name() + ": " + behind);
                }
            }
            maxLagNanos = Math.max(maxLagNanos, r.maxScheduleLagNanos());
            sent += r.sent();
            cancelled |= r.cancelled();
        }
        if (abandoned > 0) {
            ctx.log().warning(abandoned + " request(s) were still in flight when the grace period ended "
                    + "and were abandoned; raise --benchmark-grace-period to wait for them");
        }
        return new Executed(sent, abandoned, maxLagNanos, openLoop, cancelled, aborted, wakeupP99, connection, server,
                windowConnects);
    }

    /**
     * For a shard: measures the clock offset against the server, then waits for {@code --start-at} so that shards
     * started apart load the server together; records both in the outcome.
     *
     * @return false when the run was cancelled while waiting
     */
    private boolean awaitShardStart(final String origin) throws InterruptedException {
        final Shard shard = config.shard();
        if (shard == null) {
            return true;
        }
        final Map<String, String> headers = new LinkedHashMap<>(config.endpoint().headers());
        headers.putAll(RequestFactory.authHeaders(config.endpoint()));
        final Double offset = ClockOffset.measure(probes, URI.create(origin + "/v1/models"), headers);
        if (offset != null && Math.abs(offset) > 2000) {
            ctx.log().warning("this host's clock is " + Math.round(-offset / 1000) + " s off the server's: shards "
                    + "started by --start-at on hosts whose clocks disagree do not start together");
        }
        Double lateness = null;
        if (shard.startAt() != null) {
            final long waitMillis = shard.startAt().toEpochMilli() - System.currentTimeMillis();
            if (waitMillis > 0) {
                ctx.log().info("shard " + shard.label() + ": waiting " + waitMillis / 1000.0 + " s for the start at "
                        + shard.startAt());
                final long end = System.nanoTime() + waitMillis * 1_000_000L;
                // In short sleeps, so Ctrl-C ends the wait at once; the last 2 ms spin, as a sleep may overshoot.
                while (end - System.nanoTime() > 2_000_000L) {
                    if (ctx.cancellation().isCancelled()) {
                        return false;
                    }
                    ctx.sleeper().sleepNanos(Math.min(50_000_000L, end - System.nanoTime() - 2_000_000L));
                }
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            } else if (waitMillis < -1000) {
                ctx.log().warning("--start-at " + shard.startAt() + " passed " + (-waitMillis / 1000.0)
                        + " s ago; starting now");
            }
            lateness = (double) (System.currentTimeMillis() - shard.startAt().toEpochMilli());
        }
        shardRun = new ShardRun(shard.index(), shard.count(), shard.startAt() == null ? null
                : shard.startAt().toString(), lateness, offset);
        return true;
    }

    /**
     * The pool must never be what caps the load: it covers what may be in flight at once, a phase plus the
     * seamless phase that overlaps its drain. An open loop without a ceiling gets a pool it cannot exhaust
     * (connections open lazily); any wait for a connection shows in {@code client_health.transport}.
     */
    private int poolSize() {
        final List<PhaseConfig> phases = config.phases();
        int max = 1;
        for (int i = 0; i < phases.size(); i++) {
            int need = inFlightBound(phases.get(i));
            if (i + 1 < phases.size() && phases.get(i + 1).seamless()) {
                need += inFlightBound(phases.get(i + 1));
            }
            max = Math.max(max, need);
        }
        return max;
    }

    private static int inFlightBound(final PhaseConfig phase) {
        return phase.concurrency() != null ? phase.concurrency() : UNCAPPED_OPEN_LOOP_POOL;
    }

    /**
     * Opens the first phase's connections before its load, so that no measured request waits for a connect
     * (src-docs/performance.md): its concurrency, or 16 for an open loop, at most its request count, spread over the
     * URLs. In waves of {@value #PRECONNECT_WAVE}, each opened before the next: a server's accept backlog (often
     * 4,096) drops the connects of a larger burst, and a dropped connect is retried only a second later. The pool's
     * own bound (the file-descriptor budget) still applies.
     */
    private void preconnect(final InferenceClient client) throws InterruptedException {
        final PhaseConfig first = config.phases().get(0);
        final List<String> urls = config.endpoint().urls();
        int total = Math.min(first.concurrency() != null ? first.concurrency() : 16, PRECONNECT_MAX);
        if (first.requests() != null && first.durationSeconds() == null && first.sessions() == null) {
            total = Math.min(total, first.requests()); // never more connections than requests to carry
        }
        final int perUrl = (total + urls.size() - 1) / urls.size();
        for (final String url : urls) {
            final URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                continue; // the requests themselves report it
            }
            for (int opened = 0; opened < perUrl; opened += PRECONNECT_WAVE) {
                if (!client.preconnect(uri, Math.min(PRECONNECT_WAVE, perUrl - opened), 10)) {
                    ctx.log().info("preconnect: not every connection to " + url + " opened within 10 s; the rest "
                            + "open with the first requests");
                    break;
                }
            }
        }
        if (first.rate() != null && first.kind() != PhaseKind.PROFILING) {
            // An open-loop warmup grows its pool ahead of demand as the profiling phase will (sized again when
            // that begins, from the warmup's latency): the warmup is then served as the phase is, and the loop's
            // code for growing ahead is compiled before the phase instead of recompiled in its first second.
            sizeOpenLoopPool(client, first);
        }
    }

    /**
     * Before an open-loop phase (a warmup, then profiling): opens the connections it is expected to have in flight
     * (its rate times the mean latency measured so far, in the warmup) and keeps spares opening ahead of its demand
     * (src-docs/performance.md).
     */
    private void sizeOpenLoopPool(final InferenceClient client, final PhaseConfig phase) {
        final List<URI> uris = new ArrayList<>();
        for (final String url : config.endpoint().urls()) {
            try {
                uris.add(URI.create(url));
            } catch (IllegalArgumentException e) {
                // the requests themselves report it
            }
        }
        try {
            final OpenLoopPool pool = client.prepareOpenLoop(uris, phase.rate(), 10);
            if (pool != null) {
                ctx.log().debug("open loop at " + phase.rate() + "/s: " + pool.connections() + " connection(s) "
                        + "opened ahead, " + pool.spares() + " kept spare");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the phase sees the cancellation
        }
    }

    /** Progress lines unless the console is quiet: {@code --ui none}, or a log level above INFO. */
    private boolean showsProgress() {
        return !"none".equalsIgnoreCase(config.uiType())
                && ctx.log().consoleLevel().compareTo(RunLog.Level.INFO) <= 0;
    }
}
