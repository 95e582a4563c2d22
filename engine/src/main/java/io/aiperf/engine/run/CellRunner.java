package io.aiperf.engine.run;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.dataset.Conversation;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.dataset.Datasets;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.record.ShardRun;
import io.aiperf.engine.telemetry.GpuTelemetryFiles;
import io.aiperf.engine.telemetry.ServerMetrics;
import io.aiperf.engine.telemetry.ServerMetricsCollector;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.dataset.TokenizerResolver;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ConsoleTable;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.InputsJsonWriter;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.export.RecordFiles;
import io.aiperf.engine.export.RunReport;
import io.aiperf.engine.export.SummaryCsvWriter;
import io.aiperf.engine.export.SummaryJsonWriter;
import io.aiperf.engine.hooks.HookException;
import io.aiperf.engine.hooks.HookLog;
import io.aiperf.engine.hooks.KvCacheReset;
import io.aiperf.engine.hooks.Origins;
import io.aiperf.engine.hooks.ProfilerSession;
import io.aiperf.engine.hooks.ServerProfiler;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.Environment;
import io.aiperf.engine.record.HookCall;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Parker;
import io.aiperf.engine.time.WallClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One cell end to end: KV-cache reset, phases with the profiler around profiling,
 * metrics, exports and {@code cell_outcome.json}. Failures of the hooks follow the contract's failure policy;
 * exports are written even when the user cancels, flagged {@code was_cancelled}.
 * <p>
 * It is over 400 lines because it still runs setup, execution and reporting of a cell in one class, and the split
 * into those three classes has yet to be made.
 */
public final class CellRunner {
    private static final int UNCAPPED_OPEN_LOOP_POOL = 32_768;
    private final BenchmarkConfig config;
    private final Path dir;
    private final CellContext ctx;
    private final CellIdentity identity;
    private final HookLog hookLog = new HookLog();
    private ShardRun shardRun; // set once the shard's start is known
    /** The scrapes' and the clock check's client: the run's TLS and proxy settings. */
    private final io.aiperf.engine.client.ProbeClient probes;

    public CellRunner(final BenchmarkConfig config, final Path artifactDir, final CellContext ctx,
                      final CellIdentity identity) {
        this.config = config;
        this.dir = artifactDir;
        this.ctx = ctx;
        this.identity = identity;
        this.probes = new io.aiperf.engine.client.ProbeClient(config.endpoint().network());
    }

    public CellOutcome run() throws InterruptedException {
        final WallClock wall = new WallClock(ctx.clock());
        final long cpuStartNanos = processCpuNanos();
        final long cellStart = wall.toEpochNanos(ctx.clock().nanoTime());
        try {
            ctx.log().openFile(dir, ctx.redactor()::file);
        } catch (java.io.IOException e) {
            ctx.log().warning("no log file in " + dir + ": " + e.getMessage());
        }
        ctx.log().debug("cell " + identity.id() + " (trial " + identity.trial() + " of " + identity.numTrials()
                + ") into " + dir.toAbsolutePath() + "; phases: " + config.phases().stream()
                .map(CellRunner::describe).collect(java.util.stream.Collectors.joining("; ")));
        // Resolved (and any warning printed) before the run started; here it is the loaded one.
        final Tokenizer tokenizer = TokenizerResolver.resolve(config.tokenizer(), config.primaryModel(), System.getenv(),
                new io.aiperf.engine.hub.HfHub(config.endpoint().network()))
                .tokenizer();
        final List<Conversation> conversations;
        try {
            conversations = Datasets.load(config.dataset(), config.randomSeed(), tokenizer,
                    config.firstProfilingPhase().schedule(), config.endpoint().type().rankings(),
                    ctx.cancellation()::isCancelled, Datasets.TOKENIZER_BUDGET_NANOS);
        } catch (java.util.concurrent.CancellationException e) {
            return finish(CellOutcome.CANCELLED, ExitCode.CANCELLED, "cancelled by the user while building prompts",
                    0, 0, 0);
        }
        final List<Conversation> mine = shardPart(conversations);
        if (mine.isEmpty()) {
            return finish(CellOutcome.FAILED, ExitCode.USAGE, "shard " + config.shard().label() + " has no "
                    + "conversation of the " + conversations.size() + " in the dataset", 0, 0, 0);
        }
        final RequestSource source = new RequestSource(config, mine, Version.VALUE);
        // The response path is compiled on synthetic bytes while the cell sets up, probes the server and connects.
        final long[] warmed = new long[2]; // rounds, nanoseconds; read after join()
        final Thread warmup = new Thread(() -> {
            final long t0 = ctx.clock().nanoTime();
            warmed[0] = io.aiperf.engine.client.ResponsePathWarmup.run(source.probe(), config.limits(), ctx.clock(),
                    WARMUP_BUDGET_NANOS, 50_000);
            warmed[1] = ctx.clock().nanoTime() - t0;
        }, "response-path-warmup");
        warmup.setDaemon(true);
        warmup.start();
        ctx.log().debug(conversations.size() + " conversation(s), " + conversations.stream()
                .mapToInt(c -> c.turns().size()).sum() + " turn(s); tokenizer " + tokenizer.name() + " ("
                + tokenizer.source() + "); sampling " + config.dataset().effectiveSampling().wireName());
        final List<String> origins = Origins.of(config.endpoint().urls());
        if (config.endpoint().resetKvCache() != null) {
            try {
                new KvCacheReset(ctx.controlTransport(), ctx.clock(), ctx.sleeper(), hookLog)
                        .run(origins, config.endpoint().resetKvCache());
            } catch (HookException | InterruptedException e) {
                if (ctx.cancellation().isCancelled()) {
                    return finish(CellOutcome.CANCELLED, ExitCode.CANCELLED, "cancelled by the user during reset_kv_cache", 0, 0, 0);
                }
                if (e instanceof InterruptedException) {
                    throw (InterruptedException) e;
                }
                return finish(CellOutcome.FAILED, ExitCode.FAILED, "reset_kv_cache failed: " + e.getMessage(), 0, 0, 0);
            }
        }
        final ProfilerSession profiler = new ProfilerSession(config.endpoint().serverProfiler() == null ? null
                : new ServerProfiler(ctx.controlTransport(), ctx.clock(), hookLog, origins,
                config.endpoint().serverProfiler()));
        // Each shard has its own random streams (arrivals, sampling), derived from the seed and its index.
        final long seed = (config.randomSeed() == null ? System.nanoTime() : config.randomSeed())
                + (config.shard() == null ? 0 : 1_000_003L * (config.shard().index() - 1));
        final List<PhaseResult> results;
        final ExportNames names = ExportNames.of(config.artifacts().prefix());
        final RecordFiles recordFiles;
        try {
            recordFiles = new RecordFiles(dir, names, config.artifacts().exportLevel(), wall, ctx.redactor()::file,
                    config.artifacts().exportOutputsJson());
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return finish(CellOutcome.FAILED, ExitCode.FAILED, "exports not written: " + e.getMessage(), 0, 0, 0);
        }
        final io.aiperf.engine.export.HttpTraceTable traceTable = config.artifacts().showTraceTiming()
                ? new io.aiperf.engine.export.HttpTraceTable() : null;
        recordFiles.writer().traceHttp(config.artifacts().exportHttpTrace(), traceTable);
        final RecordProcessor processor = new RecordProcessor(config.endpoint().streaming(),
                config.endpoint().useServerTokenCount(), config.goodputSlos(), tokenizer, recordFiles.writer());
        final ServerMetricsCollector scraper = serverMetricsCollector();
        final GpuTelemetryFiles gpu = GpuTelemetryFiles.open(config.endpoint().gpuTelemetry(), dir, names,
                ctx.redactor()::file, ctx.log(), probes);
        final PhaseOrchestrator orchestrator;
        final Environment.ServerIdentity server;
        // The phases stop on the user's Ctrl-C and on their own failed-request threshold; only the former ends the run.
        final CancellationToken stop = new CancellationToken();
        double wakeupP99 = 0;
        Environment.Connection connection = Environment.Connection.UNKNOWN;
        // Connections opened while a profiling window was open, and the count when the current one opened.
        final long[] windowConnects = {0, 0};
        final java.util.Iterator<PhaseConfig> profilingPhases = config.phases().stream()
                .filter(p -> p.kind() == io.aiperf.engine.config.PhaseKind.PROFILING).iterator();
        try (InferenceClient client = new InferenceClient(poolSize(), config.endpoint().timeoutSeconds(), ctx.clock(), config.limits(),
                config.endpoint().network(), config.endpoint().connectionReuse());
             CancellationToken.Registration userStop = ctx.cancellation().onCancel(stop::cancel)) {
            orchestrator = new PhaseOrchestrator(config.phases(),
                    phase -> new PhaseRunner(phase, source, client, ctx.clock(), Parker.SYSTEM, wall,
                            stop, seed + phase.name().hashCode(), processor::accept,
                            config.dataset().effectiveSampling(), tokenizer),
                    profiler, new ProfilingWindow() {
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
                    }, stop);
            client.onWarning(ctx.log()::warning);
            server = ServerProbe.identify(client, config.endpoint().urls().get(0), origins.get(0),
                    source.headers());
            if (config.limits().preconnect()) {
                preconnect(client);
            }
            warmup.join();
            ctx.log().debug(String.format(java.util.Locale.ROOT, "response path warmed: %d synthetic answers in %.0f ms",
                    warmed[0], warmed[1] / 1e6));

            try (ProgressReporter progress = new ProgressReporter(ctx.err(), ctx.liveProgress(), showsProgress(),
                    ctx.clock(), orchestrator::startedPhases); WakeupSampler wakeups = new WakeupSampler().start()) {
                if (!awaitShardStart(origins.get(0))) {
                    processor.finish();
                    recordFiles.abort();
                    return finish(CellOutcome.CANCELLED, ExitCode.CANCELLED, "cancelled by the user while waiting for "
                            + "--start-at", 0, 0, 0);
                }
                progress.start();
                results = orchestrator.run();
                wakeupP99 = wakeups.p99Millis();
                connection = client.connection();
            } catch (HookException e) {
                processor.finish();
                recordFiles.abort();
                final long sent = orchestrator.startedPhases().stream()
                        .mapToLong(Phase::issuedCount).sum();
                return ctx.cancellation().isCancelled()
                        ? finish(CellOutcome.CANCELLED, ExitCode.CANCELLED, "cancelled by the user during server_profiler start", sent, 0, 0)
                        : finish(CellOutcome.FAILED, ExitCode.FAILED, "server_profiler start failed: " + e.getMessage(), sent, 0, 0);
            }
        }
        orchestrator.warnings().forEach(w -> ctx.log().warning(w));
        long sent = 0;
        long abandoned = 0;
        long maxLagNanos = 0;
        final java.util.Map<String, io.aiperf.engine.record.OpenLoopHealth> openLoop = new java.util.LinkedHashMap<>();
        boolean cancelled = ctx.cancellation().isCancelled();
        final String aborted = orchestrator.startedPhases().stream().map(Phase::abortReason)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        for (final PhaseResult r : results) {
            abandoned += r.abandoned();
            if (r.openLoop() != null && r.phase().kind() == io.aiperf.engine.config.PhaseKind.PROFILING) {
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
        final RecordProcessor.Result processed = processor.finish();
        if (scraper != null) {
            scraper.shutdown();
        }
        gpu.finish();
        if (processed.lostRecords() > 0) {
            ctx.log().warning(processed.lostRecords() + " record(s) could not be processed at all and are missing "
                    + "from the metrics");
        }
        String writeError = recordFiles.commit(processed.writeFailure());
        final MetricsSummary profilingMetrics = processed.profiling();
        final MetricsSummary warmupMetrics = processed.warmup();
        final List<RunReport.Input> inputs = new ArrayList<>();
        for (int i = 0; i < source.size(); i++) {
            inputs.add(new RunReport.Input(source.conversation(i).id(), source.bodies(i)));
        }
        final RunReport report = new RunReport(Version.VALUE, UUID.randomUUID().toString(),
                io.aiperf.engine.export.InputConfigEcho.of(ctx.redactor().config(config.givenTree()), config.randomSeed()),
                ctx.cliCommand(), config.randomSeed(),
                profilingMetrics, warmupMetrics, cancelled, inputs, cellStart,
                wall.toEpochNanos(ctx.clock().nanoTime()),
                new RunReport.ClientHealth(maxLagNanos / 1e6, (processCpuNanos() - cpuStartNanos) / 1e9, abandoned,
                        openLoop, processed.transport().withConnectsOpened(windowConnects[0]),
                        processed.queueFullWaits(), wakeupP99),
                environment(server, tokenizer, connection));
        if (report.health().limitedBy().contains("pool_wait")) {
            final double wait = report.health().transport().poolWaitP99Millis();
            ctx.log().warning(String.format(java.util.Locale.ROOT, "the client limited the run: requests waited "
                    + "%.1f ms at p99 for a connection", wait), String.format(java.util.Locale.ROOT, "the client "
                    + "limited the run: requests waited %.1f ms at p99 for a connection (over %.0f ms; "
                    + "client_health.transport), time the server never saw", wait,
                    RunReport.ClientHealth.POOL_WAIT_LIMIT_MILLIS));
        }
        final SummaryJsonWriter.Written summary = SummaryJsonWriter.write(report);
        try {
            writeExports(report, summary, profilingMetrics, names);
            writeServerMetrics(scraper, names);
            if (writeError == null) {
                writeTimeslices(names);
            }
        } catch (java.io.UncheckedIOException e) {
            writeError = writeError != null ? writeError : e.getMessage(); // names the file; the summary is still shown
        }
        printSummary(report, summary.validity(), profilingMetrics, names);
        if (traceTable != null) {
            ctx.out().println();
            ctx.out().print(traceTable.render());
            traceTable.close();
        }
        final long valid = profilingMetrics.validCount();
        final long errors = profilingMetrics.errorCount();
        if (writeError != null) {
            return finish(CellOutcome.FAILED, ExitCode.FAILED, "exports not written: " + writeError, sent, valid, errors);
        }
        if (aborted != null && !ctx.cancellation().isCancelled()) {
            return finish(CellOutcome.FAILED, ExitCode.FAILED, aborted + mostFrequentError(profilingMetrics), sent,
                    valid, errors);
        }
        if (cancelled) {
            return finish(CellOutcome.CANCELLED, ExitCode.CANCELLED, "cancelled by the user", sent, valid, errors);
        }
        final String failure = failure(valid, errors, config.limits().maxErrorRatePct(), profilingMetrics);
        return failure != null ? finish(CellOutcome.FAILED, ExitCode.FAILED, failure, sent, valid, errors)
                : finish(CellOutcome.COMPLETED, ExitCode.OK, null, sent, valid, errors);
    }

    /** This shard's conversations: every count-th of the dataset all shards build alike, so no two share one. */
    private List<Conversation> shardPart(final List<Conversation> all) {
        final io.aiperf.engine.config.Shard shard = config.shard();
        if (shard == null || shard.count() == 1) {
            return all;
        }
        final List<Conversation> out = new ArrayList<>();
        for (int i = shard.index() - 1; i < all.size(); i += shard.count()) {
            out.add(all.get(i));
        }
        return out;
    }

    /**
     * For a shard: measures the clock offset against the server, then waits for {@code --start-at} so that shards
     * started apart load the server together; records both in the outcome.
     *
     * @return false when the run was cancelled while waiting
     */
    private boolean awaitShardStart(final String origin) throws InterruptedException {
        final io.aiperf.engine.config.Shard shard = config.shard();
        if (shard == null) {
            return true;
        }
        final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>(config.endpoint().headers());
        headers.putAll(RequestFactory.authHeaders(config.endpoint()));
        final Double offset = ClockOffset.measure(probes, java.net.URI.create(origin + "/v1/models"), headers);
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

    /** A phase in one line, for the log. */
    private static String describe(final PhaseConfig p) {
        final StringBuilder sb = new StringBuilder(p.name()).append(' ').append(p.type().wireName());
        if (p.rate() != null) {
            sb.append(" at ").append(p.rate()).append("/s");
        }
        if (p.concurrency() != null) {
            sb.append(", concurrency ").append(p.concurrency());
        }
        if (p.requests() != null) {
            sb.append(", ").append(p.requests()).append(" requests");
        }
        if (p.sessions() != null) {
            sb.append(", ").append(p.sessions()).append(" sessions");
        }
        if (p.durationSeconds() != null) {
            sb.append(", ").append(p.durationSeconds()).append(" s");
        }
        return sb.toString();
    }

    private Environment environment(final Environment.ServerIdentity server, final Tokenizer tokenizer,
                                    final Environment.Connection connection) {
        final double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return new Environment(Version.VALUE, Version.COMMIT, System.getProperty("java.vendor") + " "
                + Runtime.version(), Runtime.getRuntime().availableProcessors(), load, System.getProperty("os.name")
                + " " + System.getProperty("os.version"), String.join(",", config.models()),
                tokenizer.name() + " (" + tokenizer.source() + ")", new Environment.TokenizerInfo(tokenizer.name(),
                tokenizer.revision(), tokenizer.source(), tokenizer.vocabularySize()), configHash(), server, connection);
    }

    /**
     * SHA-256 of what was asked of the server: the effective configuration without where the results go or which
     * host served them (an A/B comparison has two), secrets already redacted.
     */
    private String configHash() {
        final com.fasterxml.jackson.databind.node.ObjectNode tree = ctx.redactor().config(config.effectiveTree()).deepCopy();
        final com.fasterxml.jackson.databind.JsonNode benchmark = tree.path("benchmark");
        if (benchmark instanceof com.fasterxml.jackson.databind.node.ObjectNode b) {
            b.remove("artifacts");
            if (b.path("runtime") instanceof com.fasterxml.jackson.databind.node.ObjectNode rt) {
                rt.remove(java.util.List.of("shard", "start_at")); // the shards of one cell share its config
            }
            if (b.path("endpoint") instanceof com.fasterxml.jackson.databind.node.ObjectNode e) {
                e.remove(java.util.List.of("url", "urls"));
            }
        }
        try {
            final byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(
                    new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(tree));
            return "sha256:" + java.util.HexFormat.of().formatHex(digest, 0, 8);
        } catch (java.security.NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Why a finished cell is no measurement (src-docs/failure-modes.md): no valid request at all, or more errors
     * than allowed. A benchmark of a dead server must never pass as completed.
     */
    static String failure(final long valid, final long errors, final double maxErrorRatePct,
                          final MetricsSummary metrics) {
        final String first = mostFrequentError(metrics);
        if (valid == 0) {
            return "no valid request: " + (errors == 0 ? "none completed" : "all " + errors + " failed") + first;
        }
        final double ratePct = 100.0 * errors / (valid + errors);
        if (ratePct > maxErrorRatePct) {
            return String.format(java.util.Locale.ROOT, "error rate %.1f%% (%d of %d requests) is above --max-error-rate %s%%%s",
                    ratePct, errors, valid + errors, plain(maxErrorRatePct), first);
        }
        return null;
    }

    private static String mostFrequentError(final MetricsSummary metrics) {
        return metrics.errorSummary().isEmpty() ? "" : "; most frequent error: "
                + describe(metrics.errorSummary().get(0).details());
    }

    private static String describe(final io.aiperf.engine.record.ErrorDetails d) {
        if (d.code() == null) {
            return d.type();
        }
        final String hint = d.code() == 401 || d.code() == 403 ? " (check the API key: --api-key or --api-key-env)" : "";
        return "HTTP " + d.code() + " " + d.type() + hint;
    }

    private static String plain(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static long processCpuNanos() {
        final java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
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

    /** At most this long is spent compiling the response path before the load (src-docs/performance.md). */
    private static final long WARMUP_BUDGET_NANOS = 250_000_000L;

    /**
     * Opens the first phase's connections before its first request, so that no measured request waits for a
     * connect (src-docs/performance.md): its concurrency, or 16 for an open loop, spread over the URLs.
     */
    /**
     * Opens the first phase's connections before its load, in waves of {@value #PRECONNECT_WAVE}, each opened before
     * the next: a server's accept backlog (often 4,096) drops the connects of a larger burst, and a dropped connect
     * is retried only a second later. The pool's own bound (the file-descriptor budget) still applies.
     */
    private void preconnect(final InferenceClient client) throws InterruptedException {
        final PhaseConfig first = config.phases().get(0);
        final List<String> urls = config.endpoint().urls();
        final int total = Math.min(first.concurrency() != null ? first.concurrency() : 16, PRECONNECT_MAX);
        final int perUrl = (total + urls.size() - 1) / urls.size();
        for (final String url : urls) {
            final java.net.URI uri;
            try {
                uri = java.net.URI.create(url);
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
    }

    /**
     * Before an open-loop profiling phase: opens the connections it is expected to have in flight (its rate times
     * the mean latency measured so far, in the warmup) and keeps spares opening ahead of its demand
     * (src-docs/performance.md).
     */
    private void sizeOpenLoopPool(final InferenceClient client, final PhaseConfig phase) {
        final List<java.net.URI> uris = new ArrayList<>();
        for (final String url : config.endpoint().urls()) {
            try {
                uris.add(java.net.URI.create(url));
            } catch (IllegalArgumentException e) {
                // the requests themselves report it
            }
        }
        try {
            final io.aiperf.engine.client.OpenLoopPool pool = client.prepareOpenLoop(uris, phase.rate(), 10);
            if (pool != null) {
                ctx.log().debug("open loop at " + phase.rate() + "/s: " + pool.connections() + " connection(s) "
                        + "opened ahead, " + pool.spares() + " kept spare");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the phase sees the cancellation
        }
    }

    private static final int PRECONNECT_WAVE = 1024;
    private static final int PRECONNECT_MAX = 65_536;

    private static int inFlightBound(final PhaseConfig phase) {
        return phase.concurrency() != null ? phase.concurrency() : UNCAPPED_OPEN_LOOP_POOL;
    }

    /** The files written from the summaries; the records' JSONL was written as they came. */
    private void writeExports(final RunReport report, final SummaryJsonWriter.Written summary,
                              final MetricsSummary metrics, final ExportNames names) {
        write(names.inputsJson(), out -> out.write(InputsJsonWriter.bytes(report.inputs())));
        write(names.summaryCsv(), out -> out.write(SummaryCsvWriter.bytes(metrics)));
        write(names.summaryJson(), out -> out.write(summary.bytes()));
    }

    /** The timeslices (--slice-duration), from the records just committed. */
    private void writeTimeslices(final ExportNames names) {
        final Double slice = config.artifacts().sliceDurationSeconds();
        if (slice == null) {
            return;
        }
        try {
            final List<io.aiperf.engine.metrics.MetricsSummary> slices = io.aiperf.engine.export.Timeslices.compute(
                    dir.resolve(names.recordsJsonl()), slice, config.goodputSlos());
            write(names.timeslicesJson(), out -> out.write(io.aiperf.engine.export.Timeslices.json(slices, slice)));
            write(names.timeslicesCsv(), out -> out.write(io.aiperf.engine.export.Timeslices.csv(slices)));
        } catch (java.io.IOException e) {
            ctx.log().warning("no timeslices: " + e.getMessage());
        }
    }

    private ServerMetricsCollector serverMetricsCollector() {
        final var sm = config.endpoint().serverMetrics();
        if (sm == null || !sm.enabled()) {
            return null;
        }
        final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>(config.endpoint().headers());
        headers.putAll(RequestFactory.authHeaders(config.endpoint()));
        return new ServerMetricsCollector(sm.urls().stream().map(java.net.URI::create).toList(), headers,
                sm.intervalSeconds(), probes).onWarning(ctx.log()::warning);
    }

    /** The servers' metrics over the profiling window, in the formats asked for; nothing when no server answered. */
    private void writeServerMetrics(final ServerMetricsCollector scraper, final ExportNames names) {
        if (scraper == null) {
            return;
        }
        final ServerMetrics metrics = scraper.result();
        metrics.unanswered().forEach((url, why) -> ctx.log().log(RunLog.Level.NOTICE,
                "server metrics not collected from " + url + " (" + why + ")"));
        if (!metrics.anyAnswered()) {
            return;
        }
        final var formats = config.endpoint().serverMetrics().formats();
        if (formats.contains("json")) {
            write(names.serverMetricsJson(), out -> out.write(metrics.json()));
        }
        if (formats.contains("csv")) {
            write(names.serverMetricsCsv(), out -> out.write(metrics.csv()));
        }
    }

    /** Every file of the cell goes to disk through the redactor: a server may have echoed a secret into it. */
    private void write(final String name, final AtomicFiles.Writer writer) {
        AtomicFiles.write(dir.resolve(name), out -> {
            try (java.io.OutputStream redacted = ctx.redactor().file(out)) {
                writer.write(redacted);
            }
        });
    }

    /** Progress lines unless the console is quiet: {@code --ui none}, or a log level above INFO. */
    private boolean showsProgress() {
        return !"none".equalsIgnoreCase(config.uiType())
                && ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0;
    }

    /** Whether this cell is one of several: its validity lines are then said once for the run, by MultiRunner. */
    private boolean oneOfSeveral() {
        return identity != null && !identity.path().equals(".");
    }

    private void printSummary(final RunReport report, final io.aiperf.engine.validity.Validity.Report validity,
                              final MetricsSummary metrics, final ExportNames names) {
        final boolean quiet = ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.WARNING) > 0;
        if (quiet && oneOfSeveral()) {
            return; // a quiet sweep prints its sweep table and the exports line, not every cell's table
        }
        ctx.out().println();
        ctx.out().print(ConsoleTable.render("AIPerf (Java) | LLM Metrics", metrics));
        if (!metrics.errorSummary().isEmpty()) {
            ctx.out().println("Errors:");
            metrics.errorSummary().forEach(e -> ctx.out().println("  " + e.count() + " x "
                    + (e.details().code() == null ? "" : e.details().code() + " ") + e.details().type() + ": "
                    + abbreviate(e.details().message())));
        }
        if (metrics.get("request_count") == null && !metrics.errorSummary().isEmpty()) {
            ctx.out().println("All requests failed. Check the URL, --endpoint-type and the request format "
                    + "(see the errors above and profile_export.jsonl).");
        }
        if (report.wasCancelled()) {
            ctx.out().println("The profile run was cancelled early. Results shown may be incomplete or inaccurate.");
        }
        // What the summary's validity block says, where it is not ok (src-docs/validity.md): on the console for a
        // single cell at WARNING and below; a run of several cells says it once for all of them (ValidityDigest).
        for (final io.aiperf.engine.validity.Check c : validity.problems()) {
            final String line = "Validity " + c.result().wireName() + " (" + c.name() + "): " + c.message() + "; "
                    + c.fix();
            if (!quiet && !oneOfSeveral()) {
                ctx.out().println(line);
            } else {
                ctx.log().debug(line);
            }
        }
        ctx.out().println("Exports: " + dir.toAbsolutePath());
        if (!quiet || !oneOfSeveral()) {
            printUpstreamFooter(report, metrics, names);
        }
    }

    /**
     * Upstream AIPerf's closing lines, word for word, for scripts that grep them: the command, the duration and the
     * absolute paths of the summary exports and the log.
     */
    private void printUpstreamFooter(final RunReport report, final MetricsSummary metrics, final ExportNames names) {
        ctx.out().println("CLI Command: " + ctx.cliCommand());
        final io.aiperf.engine.metrics.MetricValue duration = metrics.get("benchmark_duration");
        if (duration != null) {
            ctx.out().println(String.format(java.util.Locale.ROOT, "Benchmark Duration: %.2f sec%s",
                    duration.get("avg"), report.wasCancelled() ? " (cancelled early)" : ""));
        }
        ctx.out().println("CSV Export: " + dir.resolve(names.summaryCsv()).toAbsolutePath());
        ctx.out().println("JSON Export: " + dir.resolve(names.summaryJson()).toAbsolutePath());
        ctx.out().println("Log File: " + dir.resolve(ExportFiles.LOG_FOLDER).resolve(ExportFiles.LOG_FILE).toAbsolutePath());
    }

    private CellOutcome finish(final String status, final int exitCode, final String error, final long sent,
                               final long valid, final long errors) {
        final List<String> warnings = hookLog.warnings().stream().map(ctx.redactor()::text).toList();
        final CellOutcome outcome = new CellOutcome(status, exitCode, dir.toAbsolutePath().toString(),
                hookLog.calls(), warnings, ctx.redactor().text(error), sent, valid, errors, identity, shardRun);
        try {
            write(OutcomeJsonWriter.FILE, out -> out.write(OutcomeJsonWriter.bytes(outcome, Version.VALUE)));
        } catch (java.io.UncheckedIOException e) {
            ctx.log().error(e.getMessage());
        }
        printHooks(outcome);
        if (error != null && exitCode == ExitCode.FAILED) {
            ctx.log().error(error);
        }
        outcome.hooks().forEach(h -> ctx.log().debug("hook " + h));
        ctx.log().debug("cell " + status + ": " + sent + " sent, " + valid + " valid, " + errors + " failed");
        ctx.log().closeFile();
        return outcome;
    }

    private void printHooks(final CellOutcome outcome) {
        if (outcome.hooks().isEmpty()) {
            return;
        }
        ctx.out().println("Control hooks:");
        for (final HookCall c : outcome.hooks()) {
            ctx.out().println("  " + c.hook() + " " + c.url() + ": " + c.result()
                    + (c.statusCode() == null ? "" : " (" + c.statusCode() + ")")
                    + (c.attempts() > 1 ? ", " + c.attempts() + " attempts" : ""));
        }
        outcome.warnings().forEach(w -> ctx.out().println("  warning: " + w));
    }

    private static String abbreviate(final String s) {
        return s == null ? "" : s.length() <= 160 ? s : s.substring(0, 160) + "...";
    }
}
