package io.aiperf.engine.cli;

import static io.aiperf.engine.cli.HelpTopic.*;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.TlsStrategies;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.hooks.HttpControlTransport;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.sweep.CellPlan;
import io.aiperf.engine.sweep.MultiRunner;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.search.CapacitySearch;
import io.aiperf.engine.search.SearchResult;
import io.aiperf.engine.search.SearchSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code aiperf profile}: one benchmark cell against an OpenAI-compatible server.
 * <p>
 * It is over 400 lines because it checks, before any traffic, every combination of options that spans several
 * features (search, convergence, gate, shards, readiness); each check is a few lines and its message names the flags.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Run a benchmark against an OpenAI-compatible server and write AIPerf's export files.",
        footerHeading = "%nExamples:%n", footer = {
                "  # the embedded mock server, after a short warmup",
                "  aiperf profile --mock --streaming --concurrency 8 --request-count 100 \\",
                "      --warmup-request-count 20",
                "  # a Poisson rate for 5 minutes, quiet, the summary as JSON for jq",
                "  aiperf profile -u http://localhost:8000 --streaming --request-rate 20 \\",
                "      --benchmark-duration 5m --quiet --output-format json | jq .goodput",
                "  # a concurrency sweep, 3 trials each, gated against a baseline",
                "  aiperf profile -f bench.yaml --concurrency 8,32 --num-profile-runs 3 \\",
                "      --gate rules.yaml --baseline artifacts/baseline"})
public final class ProfileCommand implements Callable<Integer> {
    @Mixin
    ProfileOptions options;

    @Mixin
    SearchOptions searchOptions;

    @Mixin
    ConvergenceOptions convergenceOptions;

    @Topic(ENDPOINT)
    @Option(names = "--mock", description = "Start the embedded mock server (TTFT 20 ms, ITL 5 ms) and benchmark it.")
    boolean mock;

    @Topic(ENDPOINT)
    @Option(names = "--mock-max-slots", paramLabel = "N", description = "With --mock: serve at most N requests at once "
            + "and queue the rest, as mock-server --max-slots does (for trying a capacity search). Default: 0 (unlimited).")
    int mockMaxSlots;

    @Topic(CI)
    @Option(names = "--gate", paramLabel = "RULES", description = "Run the regression gate with these rules after the run.")
    Path gateRules;

    @Topic(CI)
    @Option(names = "--baseline", paramLabel = "RUN", description = "Baseline run for --gate; repeat for the mean of several.")
    List<Path> baselines = new java.util.ArrayList<>();

    @Topic(CI)
    @Option(names = "--require-baseline", description = GateCommand.REQUIRE_BASELINE)
    boolean requireBaseline;

    @Topic(CI)
    @Option(names = "--label", paramLabel = "TEXT", description = "This run's name in trends (aiperf report --trend), "
            + "e.g. the CI build number; recorded in run_label.json. Default: the artifact directory's name.")
    String label;

    @Topic(TRIALS)
    @Option(names = "--cell", paramLabel = "ID", description = "Run only this cell (an id from `config expand --cells`); "
            + "repeatable. Merge cells run apart with `aiperf aggregate`.")
    List<String> cells = new java.util.ArrayList<>();

    @Topic(OUTPUT)
    @Option(names = "--output-format", paramLabel = "OUTPUT", completionCandidates = Candidates.OutputFormats.class,
            description = "text (the default) or json: stdout carries only the summary as JSON (a sweep's: every cell's "
                    + "summary by cell id), for jq; the console's text goes to stderr.")
    String outputFormat = "text";

    @Topic(CI)
    @Option(names = "--pid-file", paramLabel = "FILE", description = "Write this process's id here while it runs "
            + "(for CI integrations that stop a run with SIGTERM or SIGINT).")
    Path pidFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CancellationToken cancellation = new CancellationToken();

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        MockServer mockServer = null;
        if (pidFile != null) {
            java.nio.file.Files.writeString(pidFile, Long.toString(ProcessHandle.current().pid()));
        }
        try {
            final boolean json = "json".equalsIgnoreCase(outputFormat);
            if (!json && !"text".equalsIgnoreCase(outputFormat)) {
                err.println("error: invalid configuration: --output-format: expected text or json, got '"
                        + outputFormat + "'");
                return ExitCode.USAGE;
            }
            final String misuse = misuse();
            if (misuse != null) {
                err.println("error: " + misuse);
                return ExitCode.USAGE;
            }
            final SearchSpec search;
            final io.aiperf.engine.convergence.ConvergenceSpec convergence;
            try {
                final com.fasterxml.jackson.databind.JsonNode file = options.config == null ? null
                        : io.aiperf.engine.config.YamlLoader.load(options.config, System.getenv());
                searchOptions.defaults(file == null ? null : file.get("search"));
                convergenceOptions.defaults(file);
                convergence = convergenceOptions.spec();
                search = searchOptions.spec(options.confidenceLevel != null ? options.confidenceLevel
                        : file != null && file.path("multi_run").path("confidence_level").isNumber()
                        ? file.path("multi_run").path("confidence_level").asDouble() : null, convergence);
            } catch (ConfigException e) {
                err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
            final boolean rateKnob = search != null && search.knob().equals(SearchSpec.REQUEST_RATE);
            final String knobFlag = rateKnob ? options.requestRate : options.concurrency;
            if (search != null && (knobFlag != null || !cells.isEmpty() || json)) {
                err.println("error: a capacity search sets the " + search.knob() + " of each point and writes "
                        + SearchResult.FILE_NAME + "; remove " + (knobFlag != null ? rateKnob ? "--request-rate"
                        : "--concurrency" : !cells.isEmpty() ? "--cell" : "--output-format json"));
                return ExitCode.USAGE;
            }
            if (mock) {
                mockServer = MockServer.start(new MockServerConfig("127.0.0.1", 0, 20, 5, 0, 0, 0,
                        options.apiKey, 0, List.of(), mockMaxSlots));
                options.urls = List.of(mockServer.url());
                if (options.tokenizer == null) {
                    options.tokenizer = "builtin"; // the mock's words are counted with o200k_base
                }
                if (options.model == null && options.config == null) {
                    options.model = "mock-model";
                }
                if (options.logLevel().compareTo(RunLog.Level.INFO) <= 0) {
                    err.println("mock server listening on " + mockServer.url());
                }
            }
            if (gateRules != null) {
                try {
                    io.aiperf.engine.gate.GateRulesLoader.load(gateRules); // rule errors stop us before any traffic
                } catch (ConfigException e) {
                    err.println("error: invalid configuration: --gate: " + e.getMessage());
                    return ExitCode.USAGE;
                }
                for (final Path b : baselines) {
                    try {
                        if (io.aiperf.engine.gate.RunData.checkBaseline(b)) {
                            io.aiperf.engine.gate.RunData.load(List.of(b)); // unreadable results stop us too
                        }
                    } catch (ConfigException | java.io.UncheckedIOException e) {
                        err.println("error: invalid configuration: --baseline: " + e.getMessage());
                        return ExitCode.USAGE;
                    }
                }
            }
            final BenchmarkConfig config;
            final List<CellPlan.Cell> selected;
            final io.aiperf.engine.dataset.TokenizerResolver.Resolved tokenizer;
            try {
                config = loadNamingTheModel(err);
                if (search != null) {
                    checkSearchable(config, search); // every point's config loads before any traffic
                }
                selected = CellPlan.select(config, cells);
                ConvergenceOptions.check(convergence, config, search != null, !cells.isEmpty());
                final Double osl = config.dataset().oslMean();
                if (mock && osl != null && osl > MockServer.MAX_REPLY_TOKENS) {
                    // the mock caps every reply: the run would measure something else than asked, for hours
                    throw new ConfigException("--osl", String.format(java.util.Locale.ROOT, "%.0f is above the "
                            + "--mock server's longest reply of %d tokens; lower --osl, or benchmark a real server",
                            osl, MockServer.MAX_REPLY_TOKENS));
                }
                // a tokenizer that cannot be had (not found, not on the hub, refused) stops us here
                tokenizer = io.aiperf.engine.dataset.TokenizerResolver.resolve(config.tokenizer(),
                        config.primaryModel(), System.getenv(),
                        new io.aiperf.engine.hub.HfHub(config.endpoint().network()));
                // a chat template that is missing or does not render, too
                io.aiperf.engine.dataset.ChatTemplateCounter.of(config.tokenizer(), tokenizer.tokenizer());
            } catch (ConfigException e) {
                err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
            // From here on everything printed passes the run's redactor: servers may echo secrets.
            final Redactor redactor = Redactor.of(config);
            err = redactor.console(System.err);
            out = json ? err : redactor.console(System.out); // with json, stdout is the summary's alone
            // Warnings before the first cell, at the console's level (--log-level, --quiet).
            final RunLog console = new RunLog(err, options.logLevel());
            config.warnings().forEach(console::warning);
            if (tokenizer.warning() != null) {
                console.warning(tokenizer.warning());
                console.debug(tokenizer.searched());
            }
            final Path dir = artifactDir(config);
            final String unwritable = unwritable(dir);
            if (unwritable != null) {
                err.println("error: invalid configuration: --artifact-dir (benchmark.artifacts.dir): " + unwritable);
                return ExitCode.USAGE;
            }
            final boolean partial = selected.size() < CellPlan.of(config).size();
            final RunDirectory runDirectory;
            try {
                runDirectory = RunDirectory.claim(dir, partial ? selected.stream().map(c -> c.identity().path())
                        .filter(p -> !p.equals(".")).toList() : null);
            } catch (ConfigException e) {
                err.println("error: " + e.getMessage());
                return ExitCode.USAGE;
            }
            try (runDirectory) {
                // every configuration check is done; wait for the server before any load, as upstream does
                final String notReady = ModelReadiness.await(config, console);
                if (notReady != null) {
                    err.println("error: " + notReady);
                    return ExitCode.FAILED;
                }
                final long[] mockBefore = mockServer == null ? null : mockServer.busy();
                final int exit = AutoPlot.after(config, dir, run(config, selected, dir, out, err, redactor, search,
                        convergence), console);
                OtelPush.after(config, dir, console);
                if (mockServer != null) {
                    final String saturated = MockServer.saturationWarning(mockServer.busyShare(mockBefore));
                    if (saturated != null) {
                        console.warning(saturated);
                    }
                }
                if (json) {
                    SummaryOutput.print(config, selected, dir, redactor.console(System.out), err);
                }
                return exit;
            }
        } finally {
            if (mockServer != null) {
                mockServer.close();
            }
            if (pidFile != null) {
                java.nio.file.Files.deleteIfExists(pidFile);
            }
        }
    }

    private int run(final BenchmarkConfig config, final List<CellPlan.Cell> selected, final Path dir,
                    final PrintStream out, final PrintStream err, final Redactor redactor, final SearchSpec search,
                    final io.aiperf.engine.convergence.ConvergenceSpec convergence)
            throws Exception {
        {
            final CellContext ctx = cellContext(config, out, err, redactor, cancellation, spec, options.logLevel());
            final Interrupts interrupts = Interrupts.install(cancellation, err);
            try {
                if (label != null) {
                    io.aiperf.engine.export.AtomicFiles.write(dir.resolve(io.aiperf.engine.ci.RunLabel.FILE),
                            new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(
                                    java.util.Map.of("label", label.strip())));
                }
                final io.aiperf.engine.run.RunResult ran = search != null
                        ? CapacitySearch.runCells(search, v -> configAt(search, v), dir, ctx)
                        : MultiRunner.runCells(config, selected, dir, ctx, convergence);
                final int exit = ran.exitCode();
                if (exit == ExitCode.CANCELLED && interrupts.terminated()) {
                    return ExitCode.TERMINATED; // stopped by SIGTERM, as a CI system stops a job
                }
                if (gateRules == null || exit != ExitCode.OK) {
                    return exit;
                }
                // The gate judges the cells just run, as they returned; a failing gate never removes the exports.
                return GateCommand.run(gateRules, baselines, dir, ran,
                        io.aiperf.engine.export.ExportNames.of(config.artifacts().prefix()), requireBaseline);
            } finally {
                interrupts.uninstall();
            }
        }
    }

    /** What every cell of a command run shares: consoles, clocks, the control transport, cancellation. */
    static CellContext cellContext(final BenchmarkConfig config, final PrintStream out, final PrintStream err,
                                   final Redactor redactor, final CancellationToken cancellation,
                                   final CommandLine.Model.CommandSpec spec, final RunLog.Level logLevel) {
        final Map<String, String> controlHeaders = new LinkedHashMap<>(config.endpoint().headers());
        controlHeaders.putAll(RequestFactory.authHeaders(config.endpoint()));
        return new CellContext(out, err, System.console() != null, Clock.SYSTEM, cancellation.sleeper(),
                new HttpControlTransport(controlHeaders, cancellation, TlsStrategies.of(config.endpoint().tls()),
                        config.endpoint().proxy()),
                cancellation, redactor.command(spec.commandLine().getParseResult().originalArgs().toArray(new String[0])),
                redactor, new RunLog(err, logLevel));
    }

    /**
     * The config; when it names no model, the one model the server serves ({@link ModelDiscovery}), said on the
     * console. The endpoint to ask comes from a config loaded with a placeholder name, so the YAML's URL, headers
     * and API key are the ones used.
     */
    private BenchmarkConfig loadNamingTheModel(final PrintStream err) {
        try {
            return ConfigLoader.load(options.config, options.overlay(), System.getenv());
        } catch (ConfigException e) {
            if (options.model != null || !io.aiperf.engine.config.ConfigBinder.NO_MODEL.equals(e.reason())) {
                throw e;
            }
        }
        options.model = "model-to-be-asked";
        final BenchmarkConfig probe = ConfigLoader.load(options.config, options.overlay(), System.getenv());
        options.model = ModelDiscovery.onlyModel(probe.endpoint());
        if (options.logLevel().compareTo(RunLog.Level.INFO) <= 0) {
            err.println("model " + options.model + ": the one the server lists at /v1/models");
        }
        return ConfigLoader.load(options.config, options.overlay(), System.getenv());
    }

    /** A capacity search point's config: the run's, at this value of the knob (src-docs/capacity.md). */
    private BenchmarkConfig configAt(final SearchSpec search, final int value) {
        final boolean rate = search.knob().equals(SearchSpec.REQUEST_RATE);
        final String given = rate ? options.requestRate : options.concurrency;
        final List<String> givenGoodput = options.goodput;
        if (!search.goodput().isEmpty()) {
            options.goodput = search.goodput(); // the goodput recipe's per-request SLOs, counted in every cell
        }
        if (rate) {
            options.requestRate = Integer.toString(value);
        } else {
            options.concurrency = Integer.toString(value);
        }
        try {
            return ConfigLoader.load(options.config, options.overlay(), System.getenv());
        } finally {
            options.goodput = givenGoodput;
            if (rate) {
                options.requestRate = given;
            } else {
                options.concurrency = given;
            }
        }
    }

    /** A search runs one cell per point: no sweep, no trials, and every point's config must load. */
    private void checkSearchable(final BenchmarkConfig config, final SearchSpec search) {
        if (config.isSweep() || config.multiRun().numRuns() > 1) {
            throw new ConfigException("--search-space", "a capacity search runs one cell per point; remove the "
                    + "sweep and --num-profile-runs");
        }
        if (!search.goodput().isEmpty() && options.goodput != null) {
            throw new ConfigException("--goodput", "--search-recipe max-goodput-under-slo sets the per-request SLOs "
                    + "from --ttft-sla-ms, --tpot-sla-ms and --e2e-sla-ms; remove --goodput");
        }
        configAt(search, search.min());
        configAt(search, search.max());
        if (search.pooling().equals(SearchSpec.POOLING_POOLED) && config.artifacts().exportLevel().equals("summary")) {
            throw new ConfigException("--search-percentile-pooling", "pooled reads every trial's requests: it needs "
                    + "--export-level records or raw");
        }
    }

    /** Flags that make no sense together, said before anything starts; null when there are none. */
    private String misuse() {
        if (label != null && io.aiperf.engine.ci.RunLabel.invalid(label) != null) {
            return "invalid configuration: " + io.aiperf.engine.ci.RunLabel.invalid(label);
        }
        if (mock && options.urls != null && !options.urls.isEmpty()) {
            return "--mock starts its own server and benchmarks it; remove -u/--url, or remove --mock to benchmark "
                    + String.join(", ", options.urls);
        }
        if (mockMaxSlots != 0 && (!mock || mockMaxSlots < 0)) {
            return mockMaxSlots < 0 ? "--mock-max-slots: must not be negative (0 = unlimited)"
                    : "--mock-max-slots sets the slots of the --mock server; add --mock, or remove --mock-max-slots";
        }
        if (!baselines.isEmpty() && gateRules == null) {
            return "--baseline is what the gate compares with: add --gate RULES, or remove --baseline";
        }
        if (requireBaseline && gateRules == null) {
            return "--require-baseline is about the gate's baseline: add --gate RULES, or remove --require-baseline";
        }
        return null;
    }

    /** Why the exports could not be written to the directory, or null: checked before any traffic. */
    static String unwritable(final Path dir) {
        try {
            java.nio.file.Files.createDirectories(dir);
            java.nio.file.Files.delete(java.nio.file.Files.createTempFile(dir, ".aiperf-write-check", ".tmp"));
            return null;
        } catch (java.io.IOException | SecurityException e) {
            return "cannot write to " + dir.toAbsolutePath() + " (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")";
        }
    }

    /** AIPerf's per-run subdirectory when the user did not name the directory (AIPerf's export docs). */
    static Path artifactDir(final BenchmarkConfig config) {
        final Path base = Path.of(config.artifacts().dir());
        if (config.artifacts().dirExplicit()) {
            return base;
        }
        final String model = config.primaryModel().replace('/', '_') + (config.models().size() > 1 ? "_multi" : "");
        final PhaseConfig p = config.firstProfilingPhase();
        final String stimulus = config.isSweep() ? "sweep"
                : p.type() == io.aiperf.engine.config.LoadType.FIXED_SCHEDULE ? "fixed_schedule"
                : p.type() == io.aiperf.engine.config.LoadType.USER_CENTRIC
                ? "user_centric-users" + p.users() + "-qps" + trim(p.rate()) : p.type().isRate()
                ? "request_rate" + trim(p.rate())
                : "concurrency" + p.concurrency();
        return base.resolve(model + "-openai-" + config.endpoint().type().wireName() + "-" + stimulus);
    }

    private static String trim(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
