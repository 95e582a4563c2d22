package io.aiperf.engine.run;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.ResponseParser;
import io.aiperf.engine.client.ResponsePathWarmup;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.config.Shard;
import io.aiperf.engine.dataset.ChatTemplateCounter;
import io.aiperf.engine.dataset.Conversation;
import io.aiperf.engine.dataset.Datasets;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.dataset.TokenizerResolver;
import io.aiperf.engine.dataset.TokenizerWatchdog;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.RecordFiles;
import io.aiperf.engine.hooks.HookException;
import io.aiperf.engine.hooks.HookLog;
import io.aiperf.engine.hooks.KvCacheReset;
import io.aiperf.engine.hooks.Origins;
import io.aiperf.engine.hooks.ProfilerSession;
import io.aiperf.engine.hooks.ServerProfiler;
import io.aiperf.engine.hub.HfHub;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.telemetry.GpuTelemetryFiles;
import io.aiperf.engine.telemetry.ServerMetricsCollector;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;

/**
 * A cell's setup, before any request: the dataset and this shard's part of it, the request source, the KV-cache
 * reset and the profiler's session, the files the records and the telemetry go to.
 */
final class CellSetup {
    /** At most this long is spent compiling the response path before the load (src-docs/performance.md). */
    private static final long WARMUP_BUDGET_NANOS = 250_000_000L;

    private final BenchmarkConfig config;
    private final CellContext ctx;
    private final Path dir;
    private final HookLog hookLog;
    private final ProbeClient probes;

    /**
     * What the execution and the reporting of a cell share from its setup.
     *
     * @param tokenizer the run's tokenizer under the watchdog the record processor watches (multi-turn replies)
     * @param seed the base of this shard's random streams
     * @param showTraceTiming print the HTTP trace timing table after the summary ({@code --show-trace-timing})
     */
    record Prepared(Tokenizer tokenizer, RequestSource source, Warmup warmup, List<String> origins,
                    ProfilerSession profiler, long seed, ExportNames names, RecordFiles recordFiles,
                    boolean showTraceTiming, RecordProcessor processor, ServerMetricsCollector scraper,
                    GpuTelemetryFiles gpu) {
    }

    CellSetup(final BenchmarkConfig config, final CellContext ctx, final Path dir, final HookLog hookLog,
              final ProbeClient probes) {
        this.config = config;
        this.ctx = ctx;
        this.dir = dir;
        this.hookLog = hookLog;
        this.probes = probes;
    }

    /** Opens the cell's log file and says what the cell will run. */
    void openLog(final CellIdentity identity) {
        try {
            ctx.log().openFile(dir, ctx.redactor()::file);
        } catch (IOException e) {
            ctx.log().warning("no log file in " + dir + ": " + e.getMessage());
        }
        ctx.log().debug("cell " + identity.id() + " (trial " + identity.trial() + " of " + identity.numTrials()
                + ") into " + dir.toAbsolutePath()
                + "; phases: " + config.phases().stream().map(CellSetup::describe).collect(Collectors.joining("; ")));
    }

    Prepared prepare(final WallClock wall) throws CellStopped, InterruptedException {
        // First: it needs only the endpoint's shape, and runs while the prompts are built (its own thread).
        final Warmup warmup = Warmup.start(config, ctx);
        // Resolved (and any warning printed) before the run started; here it is the loaded one.
        final Tokenizer tokenizer = TokenizerResolver.resolve(config.tokenizer(), config.primaryModel(),
                System.getenv(), new HfHub(config.endpoint().network())).tokenizer();
        // Every tokenizer call of the setup is watched: a backtracking tokenizer.json ends the cell before traffic.
        final TokenizerWatchdog watched = new TokenizerWatchdog(tokenizer, TokenizerWatchdog.FLOOR_NANOS);
        final Built built;
        try {
            built = watched.run(() -> build(watched), ctx.cancellation()::isCancelled, "building prompts");
        } catch (CancellationException e) {
            throw new CellStopped(CellStatus.CANCELLED, "cancelled by the user while building prompts", 0);
        }
        if (built.mine().isEmpty()) {
            throw new CellStopped(CellStatus.BAD_INPUT, "shard " + config.shard().label() + " has no "
                    + "conversation of the " + built.all().size() + " in the dataset", 0);
        }
        final List<Conversation> conversations = built.all();
        final List<Conversation> mine = built.mine();
        // Once traffic starts, the tokenizer counts the answers, the replies that become history and the later
        // turns' templates: all of it under one watchdog, which the record processor watches and which stops the cell.
        final TokenizerWatchdog running = new TokenizerWatchdog(tokenizer, TokenizerWatchdog.FLOOR_NANOS);
        final RequestSource source = new RequestSource(config, mine, Version.VALUE,
                built.templated() == null ? null : built.templated().laterTurnsCountedBy(running),
                RequestSource.firstTimestampMs(conversations));
        ctx.log().debug(conversations.size() + " conversation(s), " + conversations.stream()
                .mapToInt(c -> c.turns().size()).sum() + " turn(s); tokenizer " + tokenizer.name() + " ("
                + tokenizer.source() + "); sampling " + config.dataset().effectiveSampling().wireName());
        final List<String> origins = Origins.of(config.endpoint().urls());
        resetKvCache(origins);
        final ProfilerSession profiler = new ProfilerSession(config.endpoint().serverProfiler() == null ? null
                : new ServerProfiler(ctx.controlTransport(), ctx.clock(), hookLog, origins,
                config.endpoint().serverProfiler()));
        // Each shard has its own random streams (arrivals, sampling), derived from the seed and its index.
        final long seed = (config.randomSeed() == null ? System.nanoTime() : config.randomSeed())
                + (config.shard() == null ? 0 : 1_000_003L * (config.shard().index() - 1));
        final ExportNames names = ExportNames.of(config.artifacts().prefix());
        final RecordFiles recordFiles;
        try {
            recordFiles = new RecordFiles(dir, names, config.artifacts().exportLevel(), wall, ctx.redactor()::file,
                    config.artifacts().exportOutputsJson());
        } catch (IOException | UncheckedIOException e) {
            throw new CellStopped(CellStatus.FAILED, "exports not written: " + e.getMessage(), 0);
        }
        recordFiles.writer().traceHttp(config.artifacts().exportHttpTrace());
        recordFiles.writer().goodput(config.goodputSlos());
        recordFiles.writer().phases(config.phases());
        // streamed images (image_generation) are no tokens: no TTFT or ITL for them, as upstream reports none
        final RecordProcessor processor = new RecordProcessor(config.endpoint().streaming()
                && config.endpoint().type().producesTokens(),
                config.endpoint().useServerTokenCount(), config.endpoint().perChunkUsage(), config.goodputSlos(),
                running, recordFiles.writer(), config.phases().stream().anyMatch(p -> p.kind() == PhaseKind.PROFILING
                        && p.type() == LoadType.FIXED_SCHEDULE));
        final ServerMetricsCollector scraper = serverMetricsCollector();
        final GpuTelemetryFiles gpu = GpuTelemetryFiles.open(config.endpoint().gpuTelemetry(), dir, names,
                ctx.redactor()::file, ctx.log(), probes);
        return new Prepared(running, source, warmup, origins, profiler, seed, names, recordFiles,
                config.artifacts().showTraceTiming(), processor, scraper, gpu);
    }

    /** What the setup builds with the tokenizer. */
    private record Built(List<Conversation> all, List<Conversation> mine, TemplatedInputTokens templated) {
    }

    private Built build(final Tokenizer tokenizer) {
        final ChatTemplateCounter template = ChatTemplateCounter.of(config.tokenizer(), tokenizer);
        final List<Conversation> conversations = Datasets.load(config.dataset(), config.randomSeed(), tokenizer,
                config.firstProfilingPhase().schedule(), config.endpoint().type().rankings(), template);
        final List<Conversation> mine = shardPart(conversations);
        return new Built(conversations, mine, mine.isEmpty() ? null
                : TemplatedInputTokens.of(template, config.endpoint().type(), mine, ctx.log()::warning));
    }

    private void resetKvCache(final List<String> origins) throws CellStopped, InterruptedException {
        if (config.endpoint().resetKvCache() == null) {
            return;
        }
        try {
            new KvCacheReset(ctx.controlTransport(), ctx.clock(), ctx.sleeper(), hookLog)
                    .run(origins, config.endpoint().resetKvCache());
        } catch (HookException | InterruptedException e) {
            if (ctx.cancellation().isCancelled()) {
                throw new CellStopped(CellStatus.CANCELLED, "cancelled by the user during reset_kv_cache", 0);
            }
            if (e instanceof InterruptedException) {
                throw (InterruptedException) e;
            }
            throw new CellStopped(CellStatus.FAILED, "reset_kv_cache failed: " + e.getMessage(), 0);
        }
    }

    /** This shard's conversations: every count-th of the dataset all shards build alike, so no two share one. */
    private List<Conversation> shardPart(final List<Conversation> all) {
        final Shard shard = config.shard();
        if (shard == null || shard.count() == 1) {
            return all;
        }
        final List<Conversation> out = new ArrayList<>();
        for (int i = shard.index() - 1; i < all.size(); i += shard.count()) {
            out.add(all.get(i));
        }
        return out;
    }

    private ServerMetricsCollector serverMetricsCollector() {
        final var sm = config.endpoint().serverMetrics();
        if (sm == null || !sm.enabled()) {
            return null;
        }
        final Map<String, String> headers = new LinkedHashMap<>(config.endpoint().headers());
        headers.putAll(RequestFactory.authHeaders(config.endpoint()));
        return new ServerMetricsCollector(sm.urls().stream().map(URI::create).toList(), headers,
                sm.intervalSeconds(), probes).onWarning(ctx.log()::warning);
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

    /** The response path, compiled on synthetic bytes while the cell sets up, probes the server and connects. */
    static final class Warmup {
        private final Thread thread;
        private final CellContext ctx;
        private long rounds; // read after join()
        private long nanos;

        private Warmup(final BenchmarkConfig config, final CellContext ctx) {
            this.ctx = ctx;
            final ResponseParser parser = ResponseParser.of(config.endpoint());
            this.thread = new Thread(() -> {
                final long t0 = ctx.clock().nanoTime();
                rounds = ResponsePathWarmup.run(config.endpoint().streaming(), parser, config.limits(), ctx.clock(),
                        WARMUP_BUDGET_NANOS, 50_000);
                nanos = ctx.clock().nanoTime() - t0;
            }, "response-path-warmup");
            thread.setDaemon(true);
        }

        static Warmup start(final BenchmarkConfig config, final CellContext ctx) {
            final Warmup w = new Warmup(config, ctx);
            w.thread.start();
            return w;
        }

        /** Waits for the warmup to end and logs what it did. */
        void await() throws InterruptedException {
            thread.join();
            ctx.log().debug(String.format(Locale.ROOT, "response path warmed: %d synthetic answers in %.0f ms",
                    rounds, nanos / 1e6));
        }
    }
}
